"""``F.layer_normalization``: each row standardized over its units."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_same_dtype, invalid_type)
from chainer.functions.normalization.batch_normalization import (
    _interm, _stats)


class LayerNormalization(FunctionNode):

    def __init__(self, eps=1e-5):
        self.eps = eps

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        check_float(self, x)
        if x.ndim != 2:
            raise invalid_type(self, 'x.ndim == 2', '{} != 2'.format(x.ndim))
        for name, p in (('gamma', gamma), ('beta', beta)):
            check_same_dtype(self, p, x, (name, 'x'))
            if p.shape != x.shape[1:]:
                raise ValueError(
                    'layer_normalization: {} must have the shape {} (the '
                    'units of x), got {}'.format(name, x.shape[1:], p.shape))
        if x.size == 0:
            self.mean = self.inv_std = None
            return x.copy(),
        if x.dtype == numpy.float16:
            # Chainer's steps in float16 (NumPy's means sum in float32)
            xp = backend.get_array_module(x)
            self.mean = x.mean(axis=1, keepdims=True)
            x_mu = x - self.mean
            var = xp.square(x_mu).mean(axis=1, keepdims=True)
            self.inv_std = 1. / xp.sqrt(var + self.eps)
            return x_mu * self.inv_std * gamma + beta,
        self.mean, self.inv_std, _ = _stats(x, (1,), self.eps)
        y = (_interm(x) - self.mean) * self.inv_std * gamma + beta
        # (gamma's and beta's dtypes promote, with type_check off)
        return y.astype(numpy.result_type(x, gamma, beta), copy=False),

    def backward(self, indexes, grad_outputs):
        # Chainer's chain rule step by step, in F ops (so any order of
        # gradients works), which rounds as Chainer's gradients do.
        from chainer import functions as F
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        n = x.shape[1]
        mu = F.mean(x, axis=1, keepdims=True)
        x_mu = x - mu
        var = F.mean(F.square(x_mu), axis=1, keepdims=True)
        inv_std = 1. / F.sqrt(var + self.eps)
        x_hat = x_mu * inv_std
        g_x_hat = gy * gamma
        g_inv_std = F.sum(g_x_hat * x_mu, axis=1, keepdims=True)
        g_var = g_inv_std * (-1. / (var + self.eps)) * 0.5 * inv_std
        g_x_1 = g_x_hat * inv_std + g_var * (1. / n) * 2 * x_mu
        g_x = g_x_1 + F.sum(g_x_1, axis=1, keepdims=True) * (-1.) * (1. / n)
        ret = {0: g_x, 1: F.sum(gy * x_hat, axis=0), 2: F.sum(gy, axis=0)}
        return tuple(ret[i] for i in indexes)


def layer_normalization(x, gamma, beta, eps=1e-05):
    """Layer normalization.

    Standardizes each row of ``x`` over its units, then scales and shifts:
    ``y = gamma * (x - mean) / sqrt(var + eps) + beta`` (the statistics of
    one row).

    Args:
        x (~chainer.Variable or array): Batch of vectors,
            ``(batch_size, unit_size)``.
        gamma (~chainer.Variable or array): Scale, ``(unit_size,)``.
        beta (~chainer.Variable or array): Shift, ``(unit_size,)``.
        eps (float): Added to the variance.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[1., 3.]], np.float32)
    >>> F.layer_normalization(x, np.ones(2, np.float32),
    ...                       np.zeros(2, np.float32)).array.round(3)
    array([[-1.,  1.]], dtype=float32)
    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
