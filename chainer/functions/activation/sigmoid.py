"""``F.sigmoid``: 1 / (1 + exp(-x))."""

import numpy

from chainer import backend
from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Sigmoid(FunctionNode):
    """Logistic sigmoid."""

    is_elementwise = True

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        xp = numpy if isinstance(x, numpy.ndarray) else \
            backend.get_array_module(x)
        # The tanh form never overflows, whatever the sign of x.
        half = x.dtype.type(0.5)  # NumPy 1 would upcast 0-d x with 0.5
        return xp.tanh(x * half) * half + half,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(FunctionNode):
    """``gx = gy y (1 - y)`` from the sigmoid's output ``y``, as one node
    whose own gradients are ``ggx gy (1 - 2 y)`` and ``ggx y (1 - y)``
    (so that second derivatives round as Chainer's do)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        # (gy * y) * (1 - y): Chainer's evaluation order, same rounding.
        return utils.force_array(gy * y * (y.dtype.type(1) - y)),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * (1 - 2 * y))
        if 1 in indexes:
            ret.append(ggx * y * (1 - y))
        return ret


def sigmoid(x):
    """Element-wise sigmoid logistic function.

    .. math:: f(x) = (1 + \\exp(-x))^{-1}.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.sigmoid(np.array([-1e4, 0., 1e4], np.float32)).array
    array([0. , 0.5, 1. ], dtype=float32)
    """
    y, = Sigmoid().apply((x,))
    return y
