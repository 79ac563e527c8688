"""Hyperbolic functions ``cosh`` and ``sinh``."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Cosh(FunctionNode):

    @property
    def label(self):
        return 'cosh'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).cosh(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sinh(x),


def cosh(x):
    """Elementwise hyperbolic cosine function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``cosh(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.cosh(np.array([0.], np.float32)).array
    array([1.], dtype=float32)
    """
    return Cosh().apply((x,))[0]


class Sinh(FunctionNode):

    @property
    def label(self):
        return 'sinh'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).sinh(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cosh(x),


def sinh(x):
    """Elementwise hyperbolic sine function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``sinh(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.sinh(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Sinh().apply((x,))[0]
