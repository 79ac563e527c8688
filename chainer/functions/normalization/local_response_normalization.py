"""``F.local_response_normalization`` across neighbouring channels."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type


def _window_sum(xp, x, half):
    """Sum over the channels ``c - half .. c + half`` (axis 1), clipped."""
    c = x.shape[1]
    csum = xp.cumsum(x, axis=1)
    zero = xp.zeros_like(x[:, :1])
    csum = xp.concatenate([zero, csum], axis=1)
    idx = xp.arange(c)
    hi = xp.minimum(idx + half + 1, c)
    lo = xp.maximum(idx - half, 0)
    return csum[:, hi] - csum[:, lo]


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
        check_float(self, x)
        if x.ndim < 2:
            raise invalid_type(self, 'x.ndim >= 2', '{} < 2'.format(x.ndim))
        xp = backend.get_array_module(x)
        x_ = x.astype('f', copy=False) if x.dtype == 'e' else x
        scale = self.k + self.alpha * _window_sum(xp, x_ * x_, self.n // 2)
        return (x_ * scale ** -self.beta).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        # y = x * s ** -beta, s = k + alpha * W(x ** 2), W symmetric:
        # gx = gy * s ** -beta - 2 alpha beta x W(gy x s ** (-beta - 1)).
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        window = _ChannelWindowSum(self.n // 2)
        s = window.apply((x * x,))[0] * self.alpha + self.k
        s_b = s ** -self.beta
        t = _ChannelWindowSum(self.n // 2).apply((gy * x * s_b / s,))[0]
        return gy * s_b - x * t * (2 * self.alpha * self.beta),


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
