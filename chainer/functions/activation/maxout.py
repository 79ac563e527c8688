"""``F.maxout``: the maximum over groups of ``pool_size`` channels."""

import numpy

from chainer.functions._errors import chainer_text, names_bad_arguments
from chainer.functions.array.reshape import reshape
from chainer.functions.math.minmax import max as max_
from chainer.utils import type_check

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


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
    # (a reshape and a max, the nodes of Chainer's graph)
    axis, pool_size = int(axis) % ndim, int(pool_size)
    shape = x.shape
    if shape[axis] % pool_size:
        raise type_check.InvalidType(
            'x.shape[axis] % pool_size == 0',
            'x.shape[axis]={}, pool_size={}'.format(shape[axis], pool_size),
            'axis dimension must be divided by pool_size')
    x = reshape(x, shape[:axis] + (shape[axis] // pool_size, pool_size) +
                shape[axis + 1:])
    return max_(x, axis=axis + 1)
