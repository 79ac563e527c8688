"""``F.hstack``: joins arrays horizontally."""

from chainer.functions.array.concat import _Join


class Hstack(_Join):
    """Concatenates arrays horizontally."""

    _ndim = 1
    _axis = 0

    def _promote(self, shape):
        return (1,)

    def _join_axis(self, ndim):
        return 0 if ndim <= 1 else 1


def hstack(xs):
    """Concatenate variables horizontally (column wise).

    Along the second axis, or the first for 1-D (and 0-D) inputs, as
    :func:`numpy.hstack`.

    Args:
        xs (list of ~chainer.Variable or arrays): Variables of one dtype
            and ndim, with equal lengths on all axes but the joined one.

    Returns:
        ~chainer.Variable: The joined variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a, b = np.zeros((2, 3), np.float32), np.zeros((2, 1), np.float32)
    >>> F.hstack([a, b]).shape
    (2, 4)
    """
    return Hstack().apply(tuple(xs))[0]
