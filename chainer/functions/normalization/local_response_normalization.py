"""``F.local_response_normalization`` across neighbouring channels."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type


def _window_sum(xp, x, half):
    """Sum over the channels ``c - half .. c + half`` (axis 1), clipped:
    the neighbours added one shift at a time, in Chainer's order, so the
    sums round as there."""
    out = x.copy()
    for i in range(1, half + 1):
        out[:, i:] += x[:, :-i]
        out[:, :-i] += x[:, i:]
    return out


class _ChannelWindowSum(FunctionNode):
    """The window sum is symmetric, so its gradient is itself."""

    def __init__(self, half):
        self.half = half

    def forward(self, inputs):
        x, = inputs
        return _window_sum(backend.get_array_module(x), x, self.half),

    def backward(self, indexes, grad_outputs):
        return _ChannelWindowSum(self.half).apply(grad_outputs)


class LocalResponseNormalization(FunctionNode):

    def __init__(self, n=5, k=2, alpha=1e-4, beta=.75):
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        check_float(self, x, 'in_types[0]')  # Chainer's name
        if x.ndim < 2:
            raise invalid_type(self, 'x.ndim >= 2', '{} < 2'.format(x.ndim))
        xp = backend.get_array_module(x)
        # in x's dtype, float16 too, as Chainer
        scale = self.k + self.alpha * _window_sum(xp, x * x, self.n // 2)
        return x * scale ** -self.beta,

    def backward(self, indexes, grad_outputs):
        # y = x * s ** -beta, s = k + alpha * W(x ** 2), W symmetric:
        # gx = gy * s ** -beta - 2 alpha beta x W(gy x s ** (-beta - 1)).
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        window = _ChannelWindowSum(self.n // 2)
        s = window.apply((x * x,))[0] * self.alpha + self.k
        s_b = s ** -self.beta
        # Chainer's order of the products: y * gy / s, then (c * x) * t
        t = _ChannelWindowSum(self.n // 2).apply((x * s_b * gy / s,))[0]
        return gy * s_b - 2 * self.alpha * self.beta * x * t,


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Local response normalization across neighboring channels.

    ``y[:, c] = x[:, c] / (k + alpha * sum(x[:, c'] ** 2)) ** beta``, the
    sum over the channels ``c - n // 2 <= c' <= c + n // 2``.

    Args:
        x (~chainer.Variable or array): Input, ``(N, C, ...)``.
        n (int): Window size (``n // 2`` channels on each side).
        k (float): Bias.
        alpha (float): Scale of the sum.
        beta (float): Exponent.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 3), np.float32)
    >>> F.local_response_normalization(x, n=3, k=1, alpha=1, beta=1).array
    array([[0.33333334, 0.25      , 0.33333334]], dtype=float32)
    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
