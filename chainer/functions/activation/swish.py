"""``F.swish``: x * sigmoid(beta * x), beta learned per channel."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.activation.prelu import (_aligned_shape, _check_param,
                                                _other_axes)


class Swish(FunctionNode):
    """Swish activation."""

    def forward(self, inputs):
        x, beta = inputs
        _check_param(self, x, beta, 'beta')
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        b = beta.reshape(_aligned_shape(beta.shape, x.ndim))
        return x * (xp.tanh(x * b * 0.5) * 0.5 + 0.5),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.activation.sigmoid import sigmoid
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as _sum
        x, beta = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        b = reshape(beta, _aligned_shape(beta.shape, x.ndim))
        s = sigmoid(x * b)
        # dy/dx = b y + s (1 - b y);  dy/dbeta = y (x - y): Chainer's
        # forms and order, so the float rounding is the same.
        ret = []
        if 0 in indexes:
            by = b * y
            ret.append(gy * (by + s * (1 - by)))
        if 1 in indexes:
            ret.append(_sum(gy * y * (x - y),
                            axis=_other_axes(beta.ndim, x.ndim)))
        return tuple(ret)


def swish(x, beta):
    """Swish activation function.

    .. math:: f(x, \\beta) = x \\cdot \\sigma(\\beta x),

    where :math:`\\sigma` is the sigmoid and ``beta`` is broadcast along the
    axes of ``x`` from the second one on: its shape must be
    ``x.shape[1:1 + beta.ndim]`` (0-d for a single value).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Parameter
            :math:`\\beta`, of ``x``'s dtype.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.swish(np.array([[0., 2.]], np.float32),
    ...         np.array([1., 1.], np.float32)).array
    array([[0.       , 1.7615942]], dtype=float32)
    """
    y, = Swish().apply((x, beta))
    return y
