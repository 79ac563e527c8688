"""Elementwise maximum of two variables."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (broadcast_error, check_float,
                                       check_same_dtype)


def _check_pair(func, x1, x2):
    check_float(func, x1, 'x1')
    check_same_dtype(func, x1, x2, names=('x1', 'x2'))
    if x1.shape != x2.shape:
        try:
            numpy.broadcast_shapes(x1.shape, x2.shape)
        except ValueError:
            raise broadcast_error(func, x1.shape, x2.shape,
                                  names=('x1', 'x2')) from None


class _PairSelectorBase(FunctionNode):
    """Maximum/Minimum: ``_select(xp, x1, x2)`` returns where ``x1`` is
    selected (the gradient goes there) and the output."""

    def forward(self, inputs):
        x1, x2 = inputs
        _check_pair(self, x1, x2)
        xp = backend.get_array_module(x1)
        mask, y = self._select(xp, x1, x2)
        # 0-d inputs give NumPy bool scalars: F.where needs arrays.
        self._mask = xp.asarray(mask)
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.where import where
        gy, = grad_outputs
        m = self._mask
        zero = gy.xp.zeros((), gy.dtype)
        # where, not gy * mask: unselected entries get +0.0 (as in Chainer),
        # never -0.0
        return tuple([where(m if i == 0 else gy.xp.asarray(~m), gy, zero)
                      for i in indexes])


class Maximum(_PairSelectorBase):

    def _select(self, xp, x1, x2):
        # Ties send the gradient to x1, as in Chainer.
        return x1 >= x2, xp.maximum(x1, x2)


def maximum(x1, x2):
    """Element-wise maximum of input variables.

    Args:
        x1 (~chainer.Variable or array): Input (float).
        x2 (~chainer.Variable or array): Input of the same dtype,
            broadcastable against ``x1``.

    Returns:
        ~chainer.Variable: The larger of each pair of elements.  Where they
        are equal the gradient goes to ``x1``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.array([1., 4.], np.float32)
    >>> b = np.array([3., 2.], np.float32)
    >>> F.maximum(a, b).array
    array([3., 4.], dtype=float32)
    """
    return Maximum().apply((x1, x2))[0]
