"""``F.relu``: max(x, 0), the hottest op of all, so kept minimal."""

import numpy

from chainer import backend
from chainer.function_node import _RELEASED, FunctionNode
from chainer.functions._errors import invalid_type
from chainer.utils.conv_nd import _loops

# From so many items (a convolution's output) the C loops take ReLU and
# its gradient, with NumPy's bits, shared among their threads: a ResNet
# block's 32 x 64 x 32 x 32 float32, on 2 cores, forward 0.6 -> 0.4 ms and
# gradient 1.6 -> 0.5 ms (NumPy makes the mask, casts it and multiplies).
_LOOPS_SIZE = 1 << 17
_LOOPS_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


class ReLU(FunctionNode):
    """Rectified Linear Unit."""

    is_elementwise = True

    def forward(self, inputs):
        x, = inputs
        if x.dtype.kind != 'f':
            raise invalid_type(self, 'x.dtype.kind == f',
                               '{} != f'.format(x.dtype.kind))
        self.retain_outputs((0,))
        # A dtype-typed 0: NumPy 1 would upcast a 0-d x with a Python 0.
        zero = x.dtype.type(0)
        if isinstance(x, numpy.ndarray):
            if x.size >= _LOOPS_SIZE and _loops is not None and \
                    x.flags.c_contiguous and x.dtype in _LOOPS_DTYPES:
                y = numpy.empty_like(x)
                _loops.relu(y, x, x.size)
                return y,
            return numpy.maximum(x, zero),
        return backend.get_array_module(x).maximum(x, zero),

    def _backward_arrays(self, indexes, gys):
        # ReLUGrad2's product, without its node
        data = self._retained_out_data
        if data is _RELEASED:
            return None
        y, gy = data[0], gys[0]
        if type(gy) is numpy.ndarray and gy.size >= _LOOPS_SIZE and \
                _loops is not None and gy.dtype == y.dtype and \
                gy.dtype in _LOOPS_DTYPES and gy.shape == y.shape and \
                gy.flags.c_contiguous and y.flags.c_contiguous:
            gx = numpy.empty_like(gy)
            _loops.relu_grad(gx, y, gy, gy.size)
            return gx,
        gx = _masked(gy, y > 0)
        if isinstance(gx, numpy.generic):  # NumPy makes a scalar of 0-d
            gx = numpy.asarray(gx)
        return gx,

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0].array
        # The gradient at 0 is taken as 0 (y > 0), as in Chainer.
        return ReLUGrad2(y > 0).apply(grad_outputs)


def _masked(gy, mask):
    """``gy * mask``."""
    if isinstance(gy, numpy.ndarray) and gy.flags.c_contiguous and \
            not mask.flags.c_contiguous and gy.shape == mask.shape:
        # The product of a C-contiguous gy with a mask of another layout
        # (a convolution's output) is C-contiguous, and much faster with
        # the mask copied to that layout first.
        mask = numpy.ascontiguousarray(mask)
    return gy * mask


class ReLUGrad2(FunctionNode):
    """``gy * (y > 0)`` with the mask fixed: linear in ``gy``, so its own
    gradient is itself, and double (and higher) backprop is free."""

    is_elementwise = True

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        return _masked(inputs[0], self.mask),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad2(self.mask).apply(grad_outputs)


ReLUGrad = ReLUGrad2  # the name of earlier versions of this module


def relu(x):
    """Rectified Linear Unit function.

    .. math:: f(x) = \\max(0, x).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype, of any shape.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.relu(np.array([[-1, 0], [2, -3]], np.float32)).array
    array([[0., 0.],
           [2., 0.]], dtype=float32)
    """
    y, = ReLU().apply((x,))
    return y
