"""The Hurwitz zeta function ``zeta(x, q)``."""

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special_module
from chainer.variable import as_array


class Zeta(FunctionNode):

    def __init__(self, x):
        self._x = x

    @property
    def label(self):
        return 'zeta'

    def forward(self, inputs):
        q, = inputs
        check_float(self, q, 'q')
        self.retain_inputs((0,))
        f = _special_module('zeta', q).zeta
        return utils.force_array(f(self._x, q), q.dtype),

    def backward(self, indexes, grad_outputs):
        q, = self.get_retained_inputs()
        x = self._x
        # d/dq zeta(x, q) = -x zeta(x + 1, q)
        return grad_outputs[0] * (zeta(x + 1, q) * -x),


def zeta(x, q):
    """Zeta function (the Hurwitz zeta function).

    .. math::
       \\zeta(x, q) = \\sum_{k=0}^{\\infty} \\frac{1}{(k + q)^x}

    Differentiable only with respect to ``q``.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (float, ~chainer.Variable or array): The exponent (a constant).
        q (~chainer.Variable or array): Input (float), broadcastable
            against ``x``.

    Returns:
        ~chainer.Variable: Output variable, of ``q``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.zeta(2., np.array([1.], np.float32)).array
    array([1.644934], dtype=float32)
    """
    return Zeta(as_array(x)).apply((q,))[0]
