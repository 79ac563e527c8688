"""``F.absolute_error``."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss._util import check_pair


class AbsoluteError(FunctionNode):
    """Element-wise ``abs(x0 - x1)``."""

    def forward(self, inputs):
        x0, x1 = inputs
        check_pair(self, x0, x1)
        diff = x0 - x1
        self._sign = backend.get_array_module(diff).sign(diff)
        # (x0's dtype: mixed dtypes, with type_check off, subtract promoted)
        return abs(diff).astype(x0.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        # sign(d) is constant (0 at d == 0, the subgradient chosen).
        gx = grad_outputs[0] * self._sign
        return tuple(gx if i == 0 else -gx for i in indexes)


def absolute_error(x0, x1):
    """Element-wise absolute error function: ``abs(x0 - x1)``.

    Args:
        x0 (~chainer.Variable or array): Input (float).
        x1 (~chainer.Variable or array): Input of ``x0``'s shape and dtype.

    Returns:
        ~chainer.Variable: The absolute errors, of ``x0``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.absolute_error(np.array([1., 3.], np.float32),
    ...                  np.array([2., 1.], np.float32)).array
    array([1., 2.], dtype=float32)
    """
    return AbsoluteError().apply((x0, x1))[0]
