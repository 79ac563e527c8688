"""``F.squared_error`` and its alias ``F.squared_difference``."""

from chainer.function_node import FunctionNode
from chainer.functions.loss._util import check_pair


class SquaredError(FunctionNode):
    """Element-wise ``(x0 - x1) ** 2``."""

    def forward(self, inputs):
        x0, x1 = inputs
        check_pair(self, x0, x1)
        self.retain_inputs((0, 1))
        diff = x0 - x1
        # (x0's dtype: mixed dtypes, with type_check off, square promoted)
        return (diff * diff).astype(x0.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gx = grad_outputs[0] * 2 * (x0 - x1)
        return tuple(gx if i == 0 else -gx for i in indexes)


def squared_error(x0, x1):
    """Squared error function: the element-wise ``(x0 - x1) ** 2``.

    Args:
        x0 (~chainer.Variable or array): Input (float).
        x1 (~chainer.Variable or array): Input of ``x0``'s shape and dtype.

    Returns:
        ~chainer.Variable: The squared errors, of ``x0``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.squared_error(np.array([1., 3.], np.float32),
    ...                 np.array([2., 1.], np.float32)).array
    array([1., 4.], dtype=float32)
    """
    return SquaredError().apply((x0, x1))[0]


def squared_difference(x1, x2):
    """Squared difference function: the element-wise ``(x1 - x2) ** 2``.

    The same function as :func:`squared_error`.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.squared_difference(np.array([1.], np.float32),
    ...                      np.array([3.], np.float32)).array
    array([4.], dtype=float32)
    """
    return SquaredError().apply((x1, x2))[0]
