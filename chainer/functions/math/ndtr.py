"""The standard normal cumulative distribution function."""

import math

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erfc import _special_or_loop

_RSQRT_2PI = 1.0 / math.sqrt(2 * math.pi)


def _scalar_ndtr(v):
    return 0.5 * math.erfc(-v / math.sqrt(2))


class Ndtr(FunctionNode):

    @property
    def label(self):
        return 'ndtr'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _special_or_loop('ndtr', x, _scalar_ndtr),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        # The normal density.
        return grad_outputs[0] * (_RSQRT_2PI * exp(x * x * -0.5)),


def ndtr(x):
    """Elementwise cumulative distribution function of normal distribution.

    .. note::
       On the CPU it uses SciPy when it is installed, and a slower
       element-by-element loop otherwise.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.ndtr(np.array([0.], np.float32)).array
    array([0.5], dtype=float32)
    """
    return Ndtr().apply((x,))[0]
