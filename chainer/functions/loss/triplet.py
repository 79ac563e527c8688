"""``F.triplet``: the triplet margin loss."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.functions.loss._util import check_pair, check_reduce, expand_gy


class Triplet(FunctionNode):
    """``max(||a - p||^2 - ||a - n||^2 + margin, 0)`` along axis 1."""

    def __init__(self, margin=0.2, reduce='mean'):
        self.margin = margin
        self.reduce = reduce

    def forward(self, inputs):
        a, p, n = inputs
        check_pair(self, a, p, ('anchor', 'positive'))
        check_pair(self, a, n, ('anchor', 'negative'))
        if a.ndim < 2:
            raise invalid_type(self, 'anchor.ndim >= 2',
                               '{} < 2'.format(a.ndim))
        self.retain_inputs((0, 1, 2))
        xp = backend.get_array_module(a)
        dist = ((a - p) ** 2 - (a - n) ** 2).sum(axis=1) + self.margin
        loss = xp.maximum(dist, 0)
        self._active = (dist > 0).astype(a.dtype)
        if self.reduce == 'mean':
            loss = loss.sum() / max(a.shape[0], 1)  # over the batch
        return xp.asarray(loss, a.dtype),

    def backward(self, indexes, grad_outputs):
        a, p, n = self.get_retained_inputs()
        gy, = grad_outputs
        if self.reduce == 'mean':
            gy = gy * (1.0 / max(a.shape[0], 1))
        g = expand_gy(gy * self._active) * 2
        grads = {0: g * (n - p), 1: g * (p - a), 2: g * (a - n)}
        return tuple(grads[i] for i in indexes)


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Computes triplet loss.

    The loss of a triplet is ``max(||a - p||^2 - ||a - n||^2 + margin, 0)``
    (squared L2 distances summed over axis 1): the anchor is pulled to the
    positive and pushed from the negative.

    Args:
        anchor (~chainer.Variable or array): Anchors, ``(N, K)`` (or more
            axes; the distance sums over axis 1).
        positive (~chainer.Variable or array): Positives, same shape.
        negative (~chainer.Variable or array): Negatives, same shape.
        margin (float): A positive margin.
        reduce (str): ``'mean'`` (the sum divided by ``N``) or ``'no'``
            (the per-triplet losses).

    Returns:
        ~chainer.Variable: The loss, of the inputs' dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.array([[0., 0.]], np.float32)
    >>> p = np.array([[1., 0.]], np.float32)
    >>> n = np.array([[0., 0.5]], np.float32)
    >>> F.triplet(a, p, n, margin=1.0).array
    array(1.75, dtype=float32)
    """
    if margin <= 0:
        raise ValueError('triplet: margin should be positive value, '
                         'got {}'.format(margin))
    check_reduce('triplet', reduce)
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
