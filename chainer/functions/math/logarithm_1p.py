"""``log1p``: ``log(1 + x)``, accurate near zero."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Log1p(FunctionNode):

    @property
    def label(self):
        return 'log1p'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).log1p(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x + 1),


def log1p(x):
    """Elementwise natural logarithm plus one function.

    Args:
        x (~chainer.Variable or array): Input (float), greater than -1.

    Returns:
        ~chainer.Variable: ``log(1 + x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.log1p(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Log1p().apply((x,))[0]
