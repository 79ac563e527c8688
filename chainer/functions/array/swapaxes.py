"""``F.swapaxes``."""

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import names_bad_arguments


class Swapaxes(FunctionNode):
    """Swaps two axes of an array."""

    def __init__(self, axis1, axis2):
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        # NumPy/CuPy raise AxisError for an axis out of range.
        return inputs[0].swapaxes(self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return Swapaxes(self.axis1, self.axis2).apply(grad_outputs)


# NumPy's AxisError as it is, Chainer's text
@names_bad_arguments(keep=(getattr(numpy, 'exceptions', numpy).AxisError,))
def swapaxes(x, axis1, axis2):
    """Swap two axes of a variable.

    Args:
        x (~chainer.Variable or array): Input variable.
        axis1 (int): The first axis.
        axis2 (int): The second axis.

    Returns:
        ~chainer.Variable: The variable with the two axes swapped.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.swapaxes(np.zeros((2, 3, 4), np.float32), 0, 2).shape
    (4, 3, 2)
    """
    return Swapaxes(axis1, axis2).apply((x,))[0]
