"""Inverse hyperbolic tangent."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Arctanh(FunctionNode):

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).arctanh(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # d/dx arctanh(x) = 1 / (1 - x^2)
        return grad_outputs[0] / (1 - x * x),


def arctanh(x):
    """Elementwise inverse hyperbolic tangent function.

    Args:
        x (~chainer.Variable or array): Input (float), in ``(-1, 1)``.

    Returns:
        ~chainer.Variable: ``arctanh(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.arctanh(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Arctanh().apply((x,))[0]
