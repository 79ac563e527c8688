"""The inverse of the error function."""

import math

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special

_HALF_SQRT_PI = math.sqrt(math.pi) / 2


class ErfInv(FunctionNode):

    @property
    def label(self):
        return 'erfinv'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        return _special('erfinv', 'erfinv', x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        y, = self.get_retained_outputs()
        # 1 / erf'(y) = sqrt(pi) / 2 * exp(y^2)
        return grad_outputs[0] * (_HALF_SQRT_PI * exp(y * y)),


def erfinv(x):
    """Elementwise inverse function of error function.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float), in ``[-1, 1]``.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.erfinv(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return ErfInv().apply((x,))[0]
