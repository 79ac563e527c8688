"""``F.cumsum``: cumulative sum along an axis."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, check_float


def _check_axis(func, axis, ndim):
    """Validates a cumulative op's axis; returns it non-negative."""
    if axis is None:
        return None
    if not -ndim <= axis < ndim:
        need = axis if axis >= 0 else -axis - 1  # Chainer's check and words
        raise invalid_type(func, 'x.ndim > {}'.format(need),
                           '{} <= {}'.format(ndim, need))
    return axis % ndim


def _flip(x, axis):
    """Reverses a Variable along ``axis`` (differentiably)."""
    from chainer.functions.array.get_item import get_item
    return get_item(x, (slice(None),) * axis + (slice(None, None, -1),))


def _reverse_cumsum(x, axis):
    """Cumulative sum from the end of ``axis`` (the adjoint of a cumsum)."""
    return _flip(cumsum(_flip(x, axis), axis), axis)


class _Scan(FunctionNode):
    """Cumsum/Cumprod: ``xp.<_scan>`` along an axis (of the flattened array
    when None)."""

    _scan = None

    def __init__(self, axis=None):
        if axis is not None and not isinstance(axis, int):
            raise TypeError('axis must be int or None')
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self._in_shape = x.shape
        self._axis = _check_axis(self, self.axis, x.ndim)
        xp = backend.get_array_module(x)
        return getattr(xp, self._scan)(x, axis=self._axis, dtype=x.dtype),


class Cumsum(_Scan):
    """Cumulative sum along an axis (of the flattened array when None)."""

    _scan = 'cumsum'

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        gy, = grad_outputs
        if self._axis is None:
            return reshape(_reverse_cumsum(gy, 0), self._in_shape),
        return _reverse_cumsum(gy, self._axis),


def cumsum(x, axis=None):
    """Cumulative sum of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Elements to calculate the cumulative
            sum of.
        axis (int or None): Axis along which the cumulative sum is taken
            (over the flattened array when None).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.cumsum(np.array([1., 2., 3.], np.float32)).array
    array([1., 3., 6.], dtype=float32)
    """
    return Cumsum(axis).apply((x,))[0]
