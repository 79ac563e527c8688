"""``expm1``: ``exp(x) - 1``, accurate near zero."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Expm1(FunctionNode):

    @property
    def label(self):
        return 'expm1'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        return backend.get_array_module(x).expm1(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # d/dx expm1(x) = exp(x) = y + 1
        return grad_outputs[0] * (y + 1),


def expm1(x):
    """Elementwise exponential minus one function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``exp(x) - 1``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.expm1(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Expm1().apply((x,))[0]
