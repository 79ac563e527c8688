"""Elementwise square."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Square(FunctionNode):

    @property
    def label(self):
        return 'square'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).square(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * (x * 2),


def square(x):
    """Elementwise square function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``x * x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.square(np.array([3.], np.float32)).array
    array([9.], dtype=float32)
    """
    return Square().apply((x,))[0]
