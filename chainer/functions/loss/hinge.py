"""``F.hinge``: the one-vs-rest hinge loss."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import (check_int_labels, check_reduce,
                                          check_label_range)


class Hinge(FunctionNode):
    """Hinge loss of scores ``(N, K)`` against integer labels ``(N,)``."""

    def __init__(self, norm='L1', reduce='mean'):
        self.norm = norm
        self.reduce = reduce

    def forward(self, inputs):
        x, t = inputs
        check_float(self, x)
        check_int_labels(self, t)
        if x.ndim != 2:
            raise invalid_type(self, 'x.ndim == 2', '{} != 2'.format(x.ndim))
        if t.ndim != 1:
            raise invalid_type(self, 't.ndim == 1', '{} != 1'.format(t.ndim))
        if x.shape[0] != t.shape[0]:
            raise invalid_type(self, 'x.shape[0] == t.shape[0]',
                               '{} != {}'.format(x.shape[0], t.shape[0]))
        check_label_range(self, t, x.shape[1])
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        # sign: -1 at each row's label, +1 elsewhere; margin = 1 + sign * x.
        sign = 1 - 2 * (xp.arange(x.shape[1]) == t[:, None])
        self._sign = sign = sign.astype(x.dtype)
        h = xp.maximum(1 + sign * x, 0)
        # d loss / d h for L1: the sign of Chainer's margins with the labels'
        # negated, +0 where inactive (the + 0 turns -0 into +0, as its
        # numpy.sign does), so zero gradients carry gy's sign as Chainer's
        self._g = sign * (h > 0) + 0
        if self.norm == 'L2':
            h = h * h
        if self.reduce == 'mean':
            return (h.sum() / max(x.shape[0], 1)).astype(x.dtype),
        return h.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.activation.relu import relu
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.reduce == 'mean':
            gy = gy / max(x.shape[0], 1)  # as Chainer divides
        if self.norm == 'L2':
            # 2 * gy * (Chainer's margins with the labels' negated)
            return gy * 2 * (relu(1 + self._sign * x) * self._sign), None
        return gy * self._g, None


def hinge(x, t, norm='L1', reduce='mean'):
    """Computes the hinge loss for a one-of-many classification task.

    With ``s[n, k] = -1`` for ``k == t[n]`` and ``+1`` elsewhere, the
    element-wise loss is ``max(0, 1 + s * x)`` (``'L1'``) or its square
    (``'L2'``).

    Args:
        x (~chainer.Variable or array): Scores, shape ``(N, K)``.
        t (~chainer.Variable or array): Labels in ``[0, K)``, shape
            ``(N,)``.
        norm (str): ``'L1'`` or ``'L2'``.
        reduce (str): ``'mean'`` (the sum divided by ``N``) or ``'no'``
            (the ``(N, K)`` element-wise loss).

    Returns:
        ~chainer.Variable: The loss, of ``x``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[2., -1.], [0., 0.5]], np.float32)
    >>> F.hinge(x, np.array([0, 1], np.int32)).array
    array(0.75, dtype=float32)
    """
    if norm not in ('L1', 'L2'):
        raise NotImplementedError(
            "norm should be either 'L1' or 'L2'")
    check_reduce('hinge', reduce)
    return Hinge(norm, reduce).apply((x, t))[0]
