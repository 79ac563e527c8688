"""``F.reshape``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _count_known(shape):
    size = 1
    for s in shape:
        if s != -1:
            size *= s
    return size


class Reshape(FunctionNode):
    """Reshapes an input array without copy."""

    def __init__(self, shape):
        self.shape = shape

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        try:
            return x.reshape(self.shape),
        except ValueError:
            raise invalid_type(
                self, 'x.size == prod(shape) (one -1 allowed)',
                'cannot reshape an array of shape {} (size {}) into shape '
                '{}'.format(x.shape, x.size, self.shape)) from None

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self._in_shape),


def reshape(x, shape):
    """Reshapes an input variable without copy.

    Args:
        x (~chainer.Variable or array): Input variable.
        shape (tuple of int): The new shape (one element may be -1).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.reshape(np.arange(6, dtype=np.float32), (2, 3)).shape
    (2, 3)
    """
    if isinstance(shape, int):
        shape = (shape,)
    else:
        shape = tuple(shape)
    if x.shape == shape:
        from chainer.variable import as_variable
        return as_variable(x)
    return Reshape(shape).apply((x,))[0]
