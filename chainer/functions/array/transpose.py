"""``F.transpose``."""

import numpy

from chainer.function_node import FunctionNode


class Transpose(FunctionNode):
    """Permutes the dimensions of an input array."""

    def __init__(self, axes=None):
        self.axes = axes

    @property
    def label(self):
        return 'Transpose'

    def forward(self, inputs):
        x, = inputs
        axes = self.axes
        if axes is not None:
            # NumPy's own errors (AxisError, repeated axis, axes don't
            # match array), as Chainer lets them through.
            return x.transpose(axes),
        return x.transpose(),

    def backward(self, indexes, grad_outputs):
        axes = self.axes
        if axes is None:
            inv = None
        else:
            ndim = len(axes)
            inv = tuple(numpy.argsort([a % ndim for a in axes]).tolist())
        return Transpose(inv).apply(grad_outputs)


def transpose(x, axes=None):
    """Permutes the dimensions of an input variable without copy.

    Args:
        x (~chainer.Variable or array): Input variable.
        axes (tuple of ints): The permutation (reverses the axes when None).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.transpose(np.zeros((2, 3, 4), np.float32), (1, 2, 0)).shape
    (3, 4, 2)
    """
    if axes is not None:
        axes = tuple(axes)
    return Transpose(axes).apply((x,))[0]
