"""``F.cast``."""

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import names_bad_arguments


class Cast(FunctionNode):
    """Casts an array to a given dtype."""

    def __init__(self, typ):
        self.type = typ

    def forward(self, inputs):
        x, = inputs
        self._in_type = x.dtype
        return x.astype(self.type, copy=False),

    def backward(self, indexes, grad_outputs):
        return Cast(self._in_type).apply(grad_outputs)


@names_bad_arguments(keep=(TypeError,))  # NumPy's bad dtype, as Chainer
def cast(x, typ):
    """Casts an input variable to a given type.

    The gradient is cast back to the input's dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.cast(np.ones(2, np.float32), np.float64).dtype
    dtype('float64')
    """
    if x.dtype == numpy.dtype(typ):
        import chainer
        # A no-op cast records a node only when a graph is being built
        # (Chainer's rule: the input comes back as is otherwise).
        if not chainer.config.enable_backprop:
            return chainer.as_variable(x)
    return Cast(numpy.dtype(typ)).apply((x,))[0]
