"""``F.softplus``: log(1 + exp(beta x)) / beta, computed stably."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Softplus(FunctionNode):
    """Softplus, a smooth approximation of ReLU."""

    is_elementwise = True

    def __init__(self, beta=1.0):
        self.beta = float(beta)
        self.beta_inv = 1.0 / self.beta

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        t = x.dtype.type  # dtype-typed constants: NumPy 1 would upcast 0-d x
        bx = x * t(self.beta) if self.beta != 1.0 else x
        # max(bx, 0) + log(1 + exp(-|bx|)): exp never overflows.
        y = xp.maximum(bx, t(0)) + xp.log1p(xp.exp(-abs(bx)))
        return y * t(self.beta_inv) if self.beta != 1.0 else y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * _Slope(self.beta).apply((x,))[0],


class _Slope(FunctionNode):
    """The slope of softplus, ``sigmoid(beta x)``, evaluated as Chainer
    does, ``1 - 1 / (1 + exp(beta x))`` (the same float rounding; the
    overflow of exp gives the right limit 1)."""

    is_elementwise = True

    def __init__(self, beta):
        self.beta = beta

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        t = x.dtype.type
        bx = x * t(self.beta) if self.beta != 1.0 else x
        with _errstate(xp):
            return t(1) - t(1) / (t(1) + xp.exp(bx)),

    def backward(self, indexes, grad_outputs):
        s, = self.get_retained_outputs()
        gs = grad_outputs[0] * (s * (1 - s))
        return gs * self.beta if self.beta != 1.0 else gs,


def _errstate(xp):
    import contextlib
    import numpy
    return numpy.errstate(over='ignore') if xp is numpy else \
        contextlib.nullcontext()


def softplus(x, beta=1.0):
    """Element-wise softplus function.

    .. math:: f(x)=\\frac{1}{\\beta}\\log(1 + \\exp(\\beta x)),

    computed so that it is finite for any ``x``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        beta (float): Parameter :math:`\\beta` (not zero).

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.softplus(np.array([-1e4, 0., 1e4], np.float32)).array
    array([0.000000e+00, 6.931472e-01, 1.000000e+04], dtype=float32)
    """
    y, = Softplus(beta).apply((x,))
    return y
