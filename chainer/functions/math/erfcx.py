"""The scaled complementary error function ``exp(x^2) erfc(x)``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _TWO_OVER_SQRT_PI, _special


class Erfcx(FunctionNode):

    @property
    def label(self):
        return 'erfcx'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return _special('erfcx', 'erfcx', x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        # erfcx'(x) = 2 x erfcx(x) - 2 / sqrt(pi)
        return grad_outputs[0] * (2 * x * y - _TWO_OVER_SQRT_PI),


def erfcx(x):
    """Elementwise scaled complementary error function ``exp(x^2) erfc(x)``.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.erfcx(np.array([0.], np.float32)).array
    array([1.], dtype=float32)
    """
    return Erfcx().apply((x,))[0]
