"""``F.accuracy``: the fraction of correct argmax predictions."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import check_label_range


def _check_label_inputs(func, y, t):
    """Chainer's checks of (scores, labels): scores float, labels int, the
    label axis second in the scores."""
    check_float(func, y)
    if t.dtype.kind != 'i':
        raise invalid_type(func, 't.dtype.kind == i',
                           '{} != i'.format(t.dtype.kind))
    if y.ndim < 2:
        raise invalid_type(func, 'x.ndim >= 2', '{} < 2'.format(y.ndim))
    if t.ndim == 0 or y.shape[0] != t.shape[0]:
        raise invalid_type(func, 'x.shape[0] == t.shape[0]', '{} != {}'.format(
            y.shape[0], t.shape[0] if t.ndim else '()'))
    if t.ndim >= y.ndim:
        raise invalid_type(func, 'x.ndim > t.ndim',
                           '{} <= {}'.format(y.ndim, t.ndim))
    for i in range(t.ndim + 1, y.ndim):
        # axes of x beyond the labels' must have length 1 (as Chainer)
        if y.shape[i] != 1:
            raise invalid_type(func, 'x.shape[{}] == 1'.format(i),
                               '{} != 1'.format(y.shape[i]))
    if y.shape[2:t.ndim + 1] != t.shape[1:]:
        raise invalid_type(
            func, 'x.shape[2:{}] == t.shape[1:]'.format(t.ndim + 1),
            '{} != {}'.format(y.shape[2:t.ndim + 1], t.shape[1:]))


class Accuracy(FunctionNode):
    """Multiclass accuracy (not differentiable: no gradient flows)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def forward(self, inputs):
        y, t = inputs
        _check_label_inputs(self, y, t)
        if y.ndim > 1:
            check_label_range(self, t, y.shape[1], self.ignore_label)
        xp = backend.get_array_module(y)
        if t.size == 0 and self.ignore_label is None:
            return xp.asarray(float('nan'), dtype=y.dtype),
        pred = y.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is None:
            return xp.asarray((pred == t).mean(dtype=y.dtype)),
        keep = t != self.ignore_label
        count = ((pred == t) & keep).sum()
        total = keep.sum()
        # All ignored: 0 / 1 = 0, as in Chainer.
        return xp.asarray(count / xp.maximum(total, 1), dtype=y.dtype),


def accuracy(y, t, ignore_label=None):
    """Computes multiclass classification accuracy of the minibatch.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Scores of shape
            ``(N, C)`` or ``(N, C, d_1, ..., d_k)``, of a floating point
            dtype; the prediction is the argmax over the second axis.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): Signed integer
            labels of shape ``(N,)`` or ``(N, d_1, ..., d_k)``.
        ignore_label (int or None): Labels equal to it are left out (and
            the accuracy is 0 if all are).

    Returns:
        ~chainer.Variable: A 0-d Variable of ``y``'s dtype. No gradient
        flows through it.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    >>> t = np.array([1, 0, 0], np.int32)
    >>> F.accuracy(y, t).array
    array(0.6666667, dtype=float32)
    """
    return Accuracy(ignore_label).apply((y, t))[0]
