"""The inverse of the complementary error function."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special
from chainer.functions.math.erfinv import _HALF_SQRT_PI


class ErfcInv(FunctionNode):

    @property
    def label(self):
        return 'erfcinv'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        return _special('erfcinv', 'erfcinv', x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        y, = self.get_retained_outputs()
        # 1 / erfc'(y) = -sqrt(pi) / 2 * exp(y^2)
        return grad_outputs[0] * (-_HALF_SQRT_PI * exp(y * y)),


def erfcinv(x):
    """Elementwise inverse function of complementary error function.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float), in ``[0, 2]``.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.erfcinv(np.array([0.5], np.float32)).array
    array([0.47693628], dtype=float32)
    """
    return ErfcInv().apply((x,))[0]
