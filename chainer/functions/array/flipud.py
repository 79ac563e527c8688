"""``F.flipud``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


class FlipUD(FunctionNode):
    """Reverses an array along its first axis."""

    def forward(self, inputs):
        a, = inputs
        if a.ndim < 1:
            raise invalid_type(self, 'a.ndim >= 1',
                               '{} < 1'.format(a.ndim))
        return a[::-1],

    def backward(self, indexes, grad_outputs):
        return FlipUD().apply(grad_outputs)


def flipud(a):
    """Flip array in the up/down direction (along the first axis).

    Args:
        a (~chainer.Variable or array): Input variable, at least 1-D.

    Returns:
        ~chainer.Variable: The flipped variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.flipud(np.arange(3, dtype=np.float32)).array
    array([2., 1., 0.], dtype=float32)
    """
    return FlipUD().apply((a,))[0]
