"""``F.mean_absolute_error``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss._util import check_pair


class MeanAbsoluteError(FunctionNode):
    """Mean absolute error (a scalar) of two same-shaped arrays."""

    def forward(self, inputs):
        x0, x1 = inputs
        check_pair(self, x0, x1)
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        self._sign = xp.sign(diff)
        if diff.size == 0:
            return xp.asarray(numpy.nan, diff.dtype),
        acc = numpy.promote_types(diff.dtype, numpy.float32)
        return xp.asarray(abs(diff).sum(dtype=acc) / diff.size, diff.dtype),

    def backward(self, indexes, grad_outputs):
        # The derivative of |d| is sign(d), a constant (0 at d == 0).
        gx = grad_outputs[0] * (self._sign * (1.0 / self._sign.size)).astype(
            self._sign.dtype)
        return tuple(gx if i == 0 else -gx for i in indexes)


def mean_absolute_error(x0, x1):
    """Mean absolute error function.

    Computes ``sum(abs(x0 - x1)) / x0.size``.

    Args:
        x0 (~chainer.Variable or array): Input (float).
        x1 (~chainer.Variable or array): Input of ``x0``'s shape and dtype.

    Returns:
        ~chainer.Variable: A scalar of ``x0``'s dtype (NaN for empty
        inputs).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x0 = np.array([1., -2., 3.], np.float32)
    >>> F.mean_absolute_error(x0, np.zeros(3, np.float32)).array
    array(2., dtype=float32)
    """
    return MeanAbsoluteError().apply((x0, x1))[0]
