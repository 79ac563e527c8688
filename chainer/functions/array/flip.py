"""``F.flip``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _flip(x, axis):
    # Chainer's private helper: a negative axis counts from the end.
    if axis < 0:
        axis += x.ndim
    return x[(slice(None),) * axis + (slice(None, None, -1),)]


class Flip(FunctionNode):
    """Reverses an array along an axis."""

    def __init__(self, axis):
        if not isinstance(axis, int):
            raise TypeError('axis must be int')
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        axis = self.axis
        if axis >= 0 and not x.ndim > axis:
            raise invalid_type(self, 'x.ndim > {}'.format(axis),
                               '{} <= {}'.format(x.ndim, axis))
        if axis < 0 and not x.ndim >= -axis:
            raise invalid_type(self, 'x.ndim >= {}'.format(-axis),
                               '{} < {}'.format(x.ndim, -axis))
        return _flip(x, axis % x.ndim),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


def flip(x, axis):
    """Flips an input variable in reverse order along the given axis.

    Args:
        x (~chainer.Variable or array): Input variable.
        axis (int): The axis to reverse.

    Returns:
        ~chainer.Variable: The reversed variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.flip(np.arange(3, dtype=np.float32), 0).array
    array([2., 1., 0.], dtype=float32)
    """
    return Flip(axis).apply((x,))[0]
