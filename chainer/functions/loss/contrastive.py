"""``F.contrastive``: the loss of a siamese network."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.functions.loss._util import (check_label_range, check_int_labels, check_pair,
                                          check_reduce, expand_gy)


class Contrastive(FunctionNode):
    """Contrastive loss of pairs ``(x0[n], x1[n])`` with similarity ``y``."""

    def __init__(self, margin=1, reduce='mean'):
        self.margin = margin
        self.reduce = reduce

    def forward(self, inputs):
        x0, x1, y = inputs
        check_pair(self, x0, x1)
        check_int_labels(self, y, 'y')
        check_label_range(self, y, 2)
        # Chainer's checks, in its order.
        if x1.ndim and y.ndim and x1.shape[0] != y.shape[0]:
            raise invalid_type(self, 'x1.shape[0] == y.shape[0]',
                               '{} != {}'.format(x1.shape[0], y.shape[0]))
        if x0.ndim != 2:
            raise invalid_type(self, 'x0.ndim == 2',
                               '{} != 2'.format(x0.ndim))
        if y.ndim != 1:
            raise invalid_type(self, 'y.ndim == 1', '{} != 1'.format(y.ndim))
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        dist_sq = (diff * diff).sum(axis=1)
        dist = xp.sqrt(dist_sq)
        mdist = xp.maximum(self.margin - dist, 0)
        self._y = y = y.astype(x0.dtype)
        loss = (y * dist_sq + (1 - y) * mdist * mdist) * 0.5
        if self.reduce == 'mean':
            loss = loss.sum() / max(x0.shape[0], 1)
        return xp.asarray(loss, x0.dtype),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.math.maximum import maximum
        from chainer.functions.math.sqrt import sqrt
        from chainer.functions.math.sum import sum as _sum
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        xp = x0.xp
        # Chainer's chain rule step by step (the same rounding and signed
        # zeros): d loss / d x0 = alpha * (y * diff - (1 - y) *
        # max(margin - d, 0) * diff / max(d, eps)).
        diff = x0 - x1
        dist = sqrt(_sum(diff * diff, axis=1))
        shape = x0.shape
        y = xp.broadcast_to(self._y[:, None], shape)
        alpha = gy / max(shape[0], 1) if self.reduce == 'mean' else \
            expand_gy(gy)
        alpha = broadcast_to(alpha, shape)
        # (eps keeps d > 0; 1e-7 is not a float16)
        eps = 5e-3 if dist.dtype == 'float16' else 1e-7
        d = maximum(broadcast_to(expand_gy(dist), shape),
                    xp.full(shape, eps, dist.dtype))
        mdist = maximum(broadcast_to(expand_gy(self.margin - dist), shape),
                        xp.zeros(shape, dist.dtype))
        gx = alpha * y * diff + alpha * (1 - y) * mdist * -(diff / d)
        return tuple(gx if i == 0 else -gx for i in indexes)


def contrastive(x0, x1, y, margin=1, reduce='mean'):
    """Computes contrastive loss.

    With ``d[n] = ||x0[n] - x1[n]||`` (L2), the loss of a pair is
    ``(y[n] * d[n] ** 2 + (1 - y[n]) * max(margin - d[n], 0) ** 2) / 2``:
    similar pairs (``y = 1``) are pulled together, dissimilar ones
    (``y = 0``) pushed at least ``margin`` apart.

    Args:
        x0 (~chainer.Variable or array): Features, shape ``(N, K)``.
        x1 (~chainer.Variable or array): Features of ``x0``'s shape/dtype.
        y (~chainer.Variable or array): Integer labels (0 or 1), ``(N,)``.
        margin (float): A positive margin.
        reduce (str): ``'mean'`` or ``'no'`` (the ``(N,)`` losses).

    Returns:
        ~chainer.Variable: The loss, of ``x0``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x0 = np.array([[0., 0.], [0., 0.]], np.float32)
    >>> x1 = np.array([[3., 4.], [0.6, 0.8]], np.float32)
    >>> F.contrastive(x0, x1, np.array([1, 0], np.int32), reduce='no').array
    array([12.5,  0. ], dtype=float32)
    """
    if margin <= 0:
        raise ValueError('contrastive: margin should be positive value, '
                         'got {}'.format(margin))
    check_reduce('contrastive', reduce)
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]


