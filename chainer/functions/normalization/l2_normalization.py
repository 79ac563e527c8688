"""``F.normalize``: division by the L2 norm along axes."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, names_bad_arguments

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


class NormalizeL2(FunctionNode):
    """y = x / (||x|| + eps), the norm taken along ``axis``."""

    def __init__(self, eps=1e-5, axis=1):
        self.eps = eps
        self.axis = (axis,) if isinstance(axis, int) else axis

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        check_float(self, x, 'in_types[0]')
        xp = backend.get_array_module(x)
        norm = xp.sqrt(xp.square(x).sum(axis=self.axis, keepdims=True))
        return (x / (norm + x.dtype.type(self.eps))).astype(x.dtype,
                                                            copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.square import square
        from chainer.functions.math.sqrt import sqrt
        from chainer.functions.math.sum import sum as _sum
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        axis = self._axes(x.ndim)
        # Chainer's formula, step by step (the same rounding):
        # (gy * norm - (sum(x * gy) / norm_noeps) * x) / norm ** 2
        norm_noeps = sqrt(_sum(square(x), axis, keepdims=True))
        norm = norm_noeps + self.eps
        # Where the norm is 0, x is 0 too, so the sum is 0: a safe divisor
        # keeps it from becoming 0/0.
        zero = (norm_noeps.array == 0).astype(x.dtype)
        x_gy = _sum(x * gy, axis, keepdims=True) / (norm_noeps + zero)
        return (gy * norm - x_gy * x) / norm ** 2,

    def _axes(self, ndim):
        axis = self.axis if isinstance(self.axis, tuple) else (self.axis,)
        return tuple(sorted(a % ndim for a in axis))


@names_bad_arguments
def normalize(x, eps=1e-05, axis=1):
    """Normalize input by L2 norm.

    ``y = x / (sqrt(sum(x ** 2, axis)) + eps)``.

    Args:
        x (~chainer.Variable or array): Input (at least 2-D for the default
            axis).
        eps (float): Added to the norm, so a zero vector stays finite.
        axis (int or tuple of int): The axes of the norm.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.normalize(np.array([[3., 4.]], np.float32), eps=0).array
    array([[0.6, 0.8]], dtype=float32)
    """
    ndim = len(x.shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    for a in axes:
        _check_axis(a, ndim)
    return NormalizeL2(eps, axis).apply((x,))[0]


def _check_axis(axis, ndim):
    # NumPy's AxisError, as Chainer raises (a ValueError and an IndexError).
    if not isinstance(axis, (int, numpy.integer)) or not -ndim <= axis < ndim:
        raise _AxisError(
            'normalize: axis {} is out of bounds for an input of {} '
            'dimension(s)'.format(axis, ndim))
