"""The logarithm of the standard normal cumulative distribution function."""

import math

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_RSQRT_2 = 1 / math.sqrt(2)


class LogNdtr(FunctionNode):

    @property
    def label(self):
        return 'log_ndtr'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _special('log_ndtr', 'log_ndtr', x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.erfcx import erfcx
        x, = self.get_retained_inputs()
        # pdf(x) / ndtr(x) = sqrt(2 / pi) / erfcx(-x / sqrt(2)): finite for
        # very negative x, where pdf and ndtr both underflow.
        return grad_outputs[0] * (_SQRT_2_OVER_PI / erfcx(x * -_RSQRT_2)),


def log_ndtr(x):
    """Logarithm of cumulative distribution function of normal distribution.

    It is accurate for very negative ``x``, where ``log(ndtr(x))`` would
    underflow.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.log_ndtr(np.array([0.], np.float32)).array
    array([-0.6931472], dtype=float32)
    """
    return LogNdtr().apply((x,))[0]
