"""The logarithm of the absolute value of the gamma function."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special


class LGamma(FunctionNode):

    @property
    def label(self):
        return 'lgamma'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _special('lgamma', 'gammaln', x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.digamma import digamma
        x, = self.get_retained_inputs()
        return grad_outputs[0] * digamma(x),


def lgamma(x):
    """Logarithm of gamma function, ``log|Gamma(x)|``.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.lgamma(np.array([1., 3.], np.float32)).array
    array([0.       , 0.6931472], dtype=float32)
    """
    return LGamma().apply((x,))[0]
