"""``F.layer_normalization``: each row standardized over its units."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.normalization.batch_normalization import (
    BatchNormalizationGrad, _interm, _stats)


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
            if p.dtype != x.dtype:
                raise invalid_type(self, '{}.dtype == x.dtype'.format(name),
                                   '{} != {}'.format(p.dtype, x.dtype))
            if p.shape != x.shape[1:]:
                raise ValueError(
                    'layer_normalization: {} must have the shape {} (the '
                    'units of x), got {}'.format(name, x.shape[1:], p.shape))
        if x.size == 0:
            self.mean = self.inv_std = None
            return x.copy(),
        self.mean, self.inv_std, _ = _stats(x, (1,), self.eps)
        y = (_interm(x) - self.mean) * self.inv_std * gamma + beta
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        x, gamma = self.get_retained_inputs()
        gx, ggamma, gbeta = BatchNormalizationGrad(
            (1,), self.eps, self.mean, self.inv_std).apply(
                (x, reshape(gamma, (1,) + gamma.shape), grad_outputs[0]))
        ret = {0: gx, 1: reshape(ggamma, gamma.shape),
               2: reshape(gbeta, gamma.shape)}
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
