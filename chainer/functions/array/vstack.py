"""``F.vstack``: joins arrays vertically."""

from chainer.functions.array.concat import _Join


class Vstack(_Join):
    """Concatenates arrays vertically."""

    _ndim = 2
    _axis = 0
    _names = 'in_types[{}]'

    def _promote(self, shape):
        return (1,) + tuple(shape) if len(shape) == 1 else (1, 1)


def vstack(xs):
    """Concatenate variables vertically (row wise).

    Along the first axis; 1-D inputs of length ``n`` are rows ``(1, n)``,
    as :func:`numpy.vstack`.

    Args:
        xs (list of ~chainer.Variable or arrays): Variables of one dtype
            and ndim, with equal lengths on all axes but the joined one.

    Returns:
        ~chainer.Variable: The joined variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.vstack([np.zeros(3, np.float32), np.zeros(3, np.float32)]).shape
    (2, 3)
    """
    return Vstack().apply(tuple(xs))[0]
