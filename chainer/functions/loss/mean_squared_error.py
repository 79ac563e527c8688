"""``F.mean_squared_error``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss._util import check_pair


class MeanSquaredError(FunctionNode):
    """Mean squared error (a scalar) of two same-shaped arrays."""

    def forward(self, inputs):
        x0, x1 = inputs
        check_pair(self, x0, x1)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x0)
        diff = (x0 - x1).ravel()
        if diff.size == 0:
            return xp.asarray(numpy.nan, diff.dtype),
        if diff.dtype == numpy.float16:  # accumulate in float32
            d = diff.astype(numpy.float32)
            return xp.asarray(d.dot(d) / d.size, diff.dtype),
        return xp.asarray(diff.dot(diff) / diff.size, diff.dtype),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gx = grad_outputs[0] * (x0 - x1) * (2.0 / x0.size)
        return tuple(gx if i == 0 else -gx for i in indexes)


def mean_squared_error(x0, x1):
    """Mean squared error function.

    Computes ``sum((x0 - x1) ** 2) / x0.size``.

    Args:
        x0 (~chainer.Variable or array): Input (float).
        x1 (~chainer.Variable or array): Input of ``x0``'s shape and dtype.

    Returns:
        ~chainer.Variable: A scalar of ``x0``'s dtype (NaN for empty
        inputs).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x0 = np.array([1., 2., 3.], np.float32)
    >>> F.mean_squared_error(x0, np.zeros(3, np.float32)).array
    array(4.6666665, dtype=float32)
    """
    return MeanSquaredError().apply((x0, x1))[0]
