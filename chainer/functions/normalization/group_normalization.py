"""``F.group_normalization``: standardization over groups of channels."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.normalization.batch_normalization import (
    BatchNormalizationGrad, _interm, _stats)


class GroupNormalization(FunctionNode):

    def __init__(self, groups, eps=1e-5):
        self.groups = groups
        self.eps = eps

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        check_float(self, x)
        for name, p in (('gamma', gamma), ('beta', beta)):
            check_float(self, p, name)
            if x.ndim < 2 or p.shape != x.shape[1:2]:
                raise invalid_type(
                    self, 'x.shape[1] == {}.shape[0]'.format(name),
                    '{} != {}'.format(x.shape[1:2], p.shape))
        n, c = x.shape[:2]
        if c % self.groups:
            raise ValueError(
                'The number of channels {} is not divisible by \'groups\' '
                'argument {}.'.format(c, self.groups))
        # View: (N, G, C // G, spatial...), statistics over all but 0, 1.
        self._view = (n, self.groups, c // self.groups) + x.shape[2:]
        self._axes = tuple(range(2, len(self._view)))
        self._pview = (1, self.groups, c // self.groups) + \
            (1,) * (x.ndim - 2)
        if x.size == 0:
            self.mean = self.inv_std = None
            return x.copy(),
        xv = x.reshape(self._view)
        if x.dtype == gamma.dtype == numpy.float16:
            return self._forward_float16(x, gamma, beta),
        self.mean, self.inv_std, _ = _stats(xv, self._axes, self.eps)
        y = (_interm(xv) - self.mean) * self.inv_std * \
            gamma.reshape(self._pview) + beta.reshape(self._pview)
        return y.reshape(x.shape).astype(x.dtype, copy=False),

    def _forward_float16(self, x, gamma, beta):
        # Chainer's steps in float16, its promoted dtype: rows of (batch,
        # group), an explicitly float16 mean, NumPy's mean of the squares
        xp = backend.get_array_module(x)
        n, c = x.shape[:2]
        rows = x.reshape(n * self.groups, -1)
        mean = rows.mean(axis=1, dtype=x.dtype)
        x_hat = rows - mean[:, None]
        inv_std = (x_hat * x_hat).mean(axis=1)
        inv_std += self.eps
        inv_std = xp.reciprocal(xp.sqrt(inv_std))
        x_hat *= inv_std[:, None]
        y = x_hat.reshape(n, c, -1)
        y *= gamma[:, None]
        y += beta[:, None]
        keep = (n, self.groups) + (1,) * (len(self._view) - 2)
        self.mean, self.inv_std = mean.reshape(keep), inv_std.reshape(keep)
        return y.reshape(x.shape)

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        gx, ggamma, gbeta = BatchNormalizationGrad(
            self._axes, self.eps, self.mean, self.inv_std).apply(
                (reshape(x, self._view), reshape(gamma, self._pview),
                 reshape(gy, self._view)))
        ret = {0: reshape(gx, x.shape), 1: reshape(ggamma, gamma.shape),
               2: reshape(gbeta, gamma.shape)}
        return tuple(ret[i] for i in indexes)


class _MulInvStd(FunctionNode):
    """``z = inv_std(x)[:, None] * y`` for 2-D ``x`` and ``y``, where
    ``inv_std(x) = 1 / sqrt(var(x, axis=1) + eps)``; differentiable in both
    (Chainer's name for this piece of group normalization). ``mean`` and
    ``inv_std`` are x's, precomputed; ``dummy_gamma`` is kept for Chainer's
    signature."""

    def __init__(self, eps, mean, inv_std, dummy_gamma):
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std
        self.dummy_gamma = dummy_gamma

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        _, y = inputs
        return (self.inv_std[:, None] * y).astype(y.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.average import average
        x, y = self.get_retained_inputs()
        gz, = grad_outputs
        # inv_std again, as a function of x, for higher orders
        xc = x - average(x, 1, keepdims=True)
        inv = (average(xc * xc, 1, keepdims=True) + self.eps) ** -0.5
        ret = []
        if 0 in indexes:
            # d inv / dx = -inv**3 * xc / n
            ret.append(-(inv * inv * inv) * xc *
                       average(gz * y, 1, keepdims=True))
        if 1 in indexes:
            ret.append(gz * inv)
        return tuple(ret)


def group_normalization(x, groups, gamma, beta, eps=1e-05):
    """Group normalization function.

    Splits the channels of ``x`` (``(N, C, ...)``) into ``groups`` groups,
    standardizes each group of each sample over its channels and spatial
    positions, then scales and shifts per channel:
    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``.

    Args:
        x (~chainer.Variable or array): Input, ``(N, C, ...)``.
        groups (int): The number of groups; it must divide ``C``.
        gamma (~chainer.Variable or array): Scale, ``(C,)``.
        beta (~chainer.Variable or array): Shift, ``(C,)``.
        eps (float): Added to the variance.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[1., 3., 0., 4.]], np.float32)
    >>> F.group_normalization(x, 2, np.ones(4, np.float32),
    ...                       np.zeros(4, np.float32)).array.round(3)
    array([[-1.,  1., -1.,  1.]], dtype=float32)
    """
    if not isinstance(groups, (int, numpy.integer)) or \
            isinstance(groups, bool):
        raise TypeError('Argument: \'groups\' type must be (int).')
    if groups <= 0:
        raise ValueError('group_normalization: groups must be positive, got '
                         '{}'.format(groups))
    return GroupNormalization(int(groups), eps).apply((x, gamma, beta))[0]
