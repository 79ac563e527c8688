"""``F.dstack``: joins arrays along the third axis."""

from chainer.functions.array.concat import _Join


class Dstack(_Join):
    """Concatenates arrays along the third axis."""

    _ndim = 3
    _axis = 2

    def _promote(self, shape):
        return (1,) + tuple(shape) + (1,) if len(shape) == 1 else \
            tuple(shape) + (1,) if len(shape) == 2 else (1, 1, 1)


def dstack(xs):
    """Concatenate variables along the third axis (depth wise).

    Inputs with fewer than three dimensions are raised as
    :func:`numpy.atleast_3d` does (``(n,)`` to ``(1, n, 1)``, ``(m, n)``
    to ``(m, n, 1)``), as :func:`numpy.dstack`.

    Args:
        xs (list of ~chainer.Variable or arrays): Variables of one dtype
            and ndim, with equal lengths on all axes but the joined one.

    Returns:
        ~chainer.Variable: The joined variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.dstack([np.zeros((2, 3), np.float32)] * 4).shape
    (2, 3, 4)
    """
    return Dstack().apply(tuple(xs))[0]
