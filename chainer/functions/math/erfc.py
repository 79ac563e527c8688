"""The complementary error function ``1 - erf(x)``."""

import math

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _TWO_OVER_SQRT_PI, _special

def _special_or_loop(name, x, scalar_fn):
    """``special.<name>(x)``; on the CPU without SciPy, as in Chainer, a
    slow element-by-element loop of the scalar function ``scalar_fn``."""
    try:
        return _special(name, name, x)
    except ImportError:
        if not isinstance(x, numpy.ndarray):
            raise
        loop = numpy.frompyfunc(scalar_fn, 1, 1)
        return numpy.asarray(loop(x), dtype=x.dtype)


class Erfc(FunctionNode):

    @property
    def label(self):
        return 'erfc'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _special_or_loop('erfc', x, math.erfc),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        # erfc'(x) = -2 / sqrt(pi) * exp(-x^2)
        return grad_outputs[0] * (-_TWO_OVER_SQRT_PI * exp(-(x * x))),


def erfc(x):
    """Elementwise complementary error function ``1 - erf(x)``.

    .. note::
       On the CPU it uses SciPy when it is installed, and a slower
       element-by-element loop otherwise.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.erfc(np.array([0.], np.float32)).array
    array([1.], dtype=float32)
    """
    return Erfc().apply((x,))[0]
