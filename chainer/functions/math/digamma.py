"""The digamma function, the derivative of ``lgamma``."""

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.erf import _special


class DiGamma(FunctionNode):

    @property
    def label(self):
        return 'digamma'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _special('digamma', 'digamma', x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.polygamma import polygamma
        x, = self.get_retained_inputs()
        one = x.xp.asarray(numpy.ones((), numpy.int32))
        return grad_outputs[0] * polygamma(one, x),


def digamma(x):
    """Digamma function, the derivative of :func:`lgamma`.

    .. note::
       Forward computation on the CPU needs SciPy.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.digamma(np.array([1.], np.float32)).array
    array([-0.5772157], dtype=float32)
    """
    return DiGamma().apply((x,))[0]
