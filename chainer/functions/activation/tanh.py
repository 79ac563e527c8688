"""``F.tanh``."""

import numpy

from chainer import backend
from chainer.function_node import _RELEASED, FunctionNode
from chainer.functions._errors import check_float


try:
    from chainer.utils import _loops  # C loops, built where a compiler is
    _loops.tanh_grad
except (ImportError, AttributeError):  # pragma: no cover - not built
    _loops = None
_floats = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
_ndarray = numpy.ndarray


def _tanh_grad(y, gy):
    if _loops is not None and type(y) is _ndarray and \
            type(gy) is _ndarray and y.dtype in _floats and \
            gy.dtype == y.dtype and gy.shape == y.shape and y.ndim and \
            y.flags.c_contiguous and gy.flags.c_contiguous:
        # one pass with NumPy's roundings, where NumPy makes three
        gx = numpy.empty(y.shape, y.dtype)
        _loops.tanh_grad(gx, y, gy, y.size)
        return gx
    return gy * (y.dtype.type(1) - y * y)  # NumPy 1 makes 1 - y*y float64


def _loops_take(shape, dtype):
    """Whether the C loops' tanh_grad takes C-contiguous arrays of this
    shape and dtype (a static replay writes the call into its code)."""
    return _loops is not None and dtype in _floats and bool(shape)


class Tanh(FunctionNode):
    """Hyperbolic tangent."""

    is_elementwise = True
    _output_indexes_to_retain = (0,)  # retain_outputs((0,)), set once

    def forward(self, inputs):
        x, = inputs
        if x.dtype.kind != 'f':
            check_float(self, x)
        xp = numpy if isinstance(x, numpy.ndarray) else \
            backend.get_array_module(x)
        return xp.tanh(x),

    def _backward_arrays(self, indexes, gys):
        # TanhGrad's product, without its node
        data = self._retained_out_data
        if data is _RELEASED:
            return None
        gx = _tanh_grad(data[0], gys[0])
        if data[0].ndim == 0:  # NumPy makes a scalar of 0-d arithmetic
            gx = numpy.asarray(gx) if isinstance(gx, numpy.generic) else gx
        return gx,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(FunctionNode):
    """``gy * (1 - y^2)`` in one op (backward of :class:`Tanh`)."""

    is_elementwise = True

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return _tanh_grad(*inputs),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-2 * y * gy * ggx)
        if 1 in indexes:
            ret.append(ggx * (1 - y * y))
        return ret


def tanh(x):
    """Elementwise hyperbolic tangent function.

    .. math:: f(x)=\\tanh(x).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.tanh(np.array([0., 1e4], np.float32)).array
    array([0., 1.], dtype=float32)
    """
    y, = Tanh().apply((x,))
    return y
