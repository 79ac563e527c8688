"""``F.maxout``: the maximum over groups of ``pool_size`` channels."""

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_float, invalid_type,
                                       names_bad_arguments)

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


class Maxout(FunctionNode):
    """The maximum over consecutive groups of ``pool_size`` entries along
    ``axis`` (Chainer composes it of reshape and max; one node here)."""

    def __init__(self, pool_size, axis):
        self.pool_size = pool_size
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        axis, pool = self.axis, self.pool_size
        if x.shape[axis] % pool:
            raise invalid_type(
                self, 'x.shape[axis] % pool_size == 0 (axis dimension must '
                'be divided by pool_size)',
                'x.shape[{}] = {}, pool_size = {}'.format(
                    axis, x.shape[axis], pool))
        self._in_shape = x.shape
        xr = x.reshape(x.shape[:axis] + (x.shape[axis] // pool, pool) +
                       x.shape[axis + 1:])
        y = xr.max(axis=axis + 1, keepdims=True) if xr.size else \
            xr[(slice(None),) * (axis + 1) + (slice(0, 1),)]
        # Every tied maximum gets the gradient, as F.max does.
        self._mask = xr == y
        return y.reshape(y.shape[:axis + 1] + y.shape[axis + 2:]),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        gy, = grad_outputs
        axis = self.axis
        gy = reshape(gy, gy.shape[:axis + 1] + (1,) + gy.shape[axis + 1:])
        # gy times the mask, as Chainer's F.max: the non-maxima of a
        # negative gy get -0.0 (which printing shows)
        gx = broadcast_to(gy, self._mask.shape) * self._mask
        return reshape(gx, self._in_shape),


@names_bad_arguments
def maxout(x, pool_size, axis=1):
    """Maxout activation function.

    It splits ``x.shape[axis]`` into groups of ``pool_size`` consecutive
    entries and takes the maximum of each group, so that axis shrinks by a
    factor of ``pool_size``. Combined with :func:`~chainer.functions.linear`
    it makes the maxout unit of Goodfellow et al. (2013).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        pool_size (int): The size of the groups (a positive integer that
            divides ``x.shape[axis]``).
        axis (int): The axis to pool over.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.maxout(np.array([[1., 3., 2., 0.]], np.float32), 2).array
    array([[3., 2.]], dtype=float32)
    """
    if not isinstance(pool_size, (int, numpy.integer)) or \
            isinstance(pool_size, bool):
        raise TypeError('maxout: pool_size must be an int, got {!r}'.format(
            pool_size))
    if pool_size <= 0:
        raise chainer_text(
            ValueError('pool_size must be a positive integer.'))
    ndim = len(x.shape)
    if not isinstance(axis, (int, numpy.integer)):
        raise TypeError('maxout: axis must be an int, got {!r}'.format(axis))
    if not -ndim <= axis < ndim:
        raise _AxisError(
            'maxout: axis {} is out of bounds for an input of {} '
            'dimension(s)'.format(axis, ndim))
    y, = Maxout(int(pool_size), int(axis) % ndim).apply((x,))
    return y
