"""``F.fliplr``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


class FlipLR(FunctionNode):
    """Reverses an array along its second axis."""

    def forward(self, inputs):
        a, = inputs
        if a.ndim < 2:
            raise invalid_type(self, 'a.ndim >= 2',
                               '{} < 2'.format(a.ndim))
        return a[:, ::-1],

    def backward(self, indexes, grad_outputs):
        return FlipLR().apply(grad_outputs)


def fliplr(a):
    """Flip array in the left/right direction (along the second axis).

    Args:
        a (~chainer.Variable or array): Input variable, at least 2-D.

    Returns:
        ~chainer.Variable: The flipped variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.fliplr(np.arange(4, dtype=np.float32).reshape(2, 2)).array
    array([[1., 0.],
           [3., 2.]], dtype=float32)
    """
    return FlipLR().apply((a,))[0]
