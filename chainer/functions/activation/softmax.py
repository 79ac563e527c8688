"""``F.softmax``: exp(x) normalized along an axis."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.activation.log_softmax import _check_axis


class Softmax(FunctionNode):
    """Softmax along an axis."""

    def __init__(self, axis=1):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        axis = self._axis = _check_axis(self, x, self.axis)
        self.retain_outputs((0,))
        if x.size == 0:
            return x.copy(),
        xp = backend.get_array_module(x)
        # Shifted by the maximum so exp never overflows.
        y = xp.exp(x - x.max(axis=axis, keepdims=True))
        y /= y.sum(axis=axis, keepdims=True)
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.sum import sum as _sum
        y, = self.get_retained_outputs()
        gx = y * grad_outputs[0]
        return gx - y * _sum(gx, axis=self._axis, keepdims=True),


def softmax(x, axis=1):
    """Softmax function.

    .. math:: y_i = \\frac{\\exp(x_i)}{\\sum_j \\exp(x_j)},

    the sum running along ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        axis (int): The axis along which the softmax is normalized.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.softmax(np.array([[0., 0.]], np.float32)).array
    array([[0.5, 0.5]], dtype=float32)
    """
    y, = Softmax(axis).apply((x,))
    return y
