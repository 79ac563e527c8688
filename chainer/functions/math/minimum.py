"""Elementwise minimum of two variables."""

from chainer.functions.math.maximum import _PairSelectorBase


class Minimum(_PairSelectorBase):

    def _select(self, xp, x1, x2):
        # Ties send the gradient to x1, as in Chainer.
        return x1 <= x2, xp.minimum(x1, x2)

    def backward(self, indexes, grad_outputs):
        # Chainer multiplies gy by the masks here (F.maximum selects with
        # where): the unselected entries of a negative gy are -0.0.
        gy, = grad_outputs
        m = self._mask
        return tuple([gy * (m if i == 0 else ~m).astype(gy.dtype)
                      for i in indexes])


def minimum(x1, x2):
    """Element-wise minimum of input variables.

    Args:
        x1 (~chainer.Variable or array): Input (float).
        x2 (~chainer.Variable or array): Input of the same dtype,
            broadcastable against ``x1``.

    Returns:
        ~chainer.Variable: The smaller of each pair of elements.  Where they
        are equal the gradient goes to ``x1``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.array([1., 4.], np.float32)
    >>> b = np.array([3., 2.], np.float32)
    >>> F.minimum(a, b).array
    array([1., 2.], dtype=float32)
    """
    return Minimum().apply((x1, x2))[0]
