"""The inverse of ``ndtr`` (the standard normal quantile function)."""

import math

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special

_SQRT_2PI = math.sqrt(2 * math.pi)


class Ndtri(FunctionNode):

    @property
    def label(self):
        return 'ndtri'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        return _special('ndtri', 'ndtri', x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        y, = self.get_retained_outputs()
        # 1 / ndtr'(y) = sqrt(2 pi) exp(y^2 / 2)
        return grad_outputs[0] * (_SQRT_2PI * exp(y * y * 0.5)),


def ndtri(x):
    """Elementwise inverse function of :func:`ndtr`.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float), in ``[0, 1]``.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.ndtri(np.array([0.5], np.float32)).array
    array([0.], dtype=float32)
    """
    return Ndtri().apply((x,))[0]
