"""``F.expand_dims``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


class ExpandDims(FunctionNode):
    """Inserts an axis of length one."""

    def __init__(self, axis):
        self.axis = int(axis)

    def forward(self, inputs):
        x, = inputs
        axis = self.axis
        need = axis if axis >= 0 else -axis - 1
        if x.ndim < need:
            raise invalid_type(self, 'x.ndim >= {}'.format(need),
                               '{} < {}'.format(x.ndim, need))
        axis %= x.ndim + 1
        self._in_shape = x.shape
        return x.reshape(x.shape[:axis] + (1,) + x.shape[axis:]),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        return reshape(grad_outputs[0], self._in_shape),


def expand_dims(x, axis):
    """Expands dimensions of an input variable without copy.

    Args:
        x (~chainer.Variable or array): Input variable.
        axis (int): Where the new axis goes, in ``[-x.ndim - 1, x.ndim]``.

    Returns:
        ~chainer.Variable: A variable with one more dimension.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.expand_dims(np.zeros((2, 3), np.float32), 1).shape
    (2, 1, 3)
    """
    return ExpandDims(axis).apply((x,))[0]
