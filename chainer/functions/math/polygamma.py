"""The polygamma functions, derivatives of ``digamma``."""

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, invalid_type,
                                       names_bad_arguments)
from chainer.functions.math.erf import _special_module


class PolyGamma(FunctionNode):

    @property
    def label(self):
        return 'polygamma'

    def forward(self, inputs):
        n, x = inputs
        if n.dtype.kind != 'i':
            raise invalid_type(self, 'n.dtype.kind == i',
                               '{} != i'.format(n.dtype.kind))
        check_float(self, x)
        self.retain_inputs((0, 1))
        f = _special_module('polygamma', x).polygamma
        return utils.force_array(f(n, x), x.dtype),

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        # d/dx psi^(n)(x) = psi^(n+1)(x); n is an integer, not
        # differentiable.
        n1 = n.xp.asarray(n.array + 1)  # a 0-d n + 1 is a NumPy scalar
        return None, grad_outputs[0] * polygamma(n1, x)


@names_bad_arguments
def polygamma(n, x):
    """Polygamma function, the ``n``-th derivative of :func:`digamma`.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        n (~chainer.Variable or array): Orders (integer array),
            broadcastable against ``x``.
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable, of ``x``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.polygamma(np.array([1], np.int32), np.array([1.], np.float32)).array
    array([1.644934], dtype=float32)
    """
    return PolyGamma().apply((n, x))[0]
