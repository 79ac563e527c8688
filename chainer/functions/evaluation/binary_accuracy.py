"""``F.binary_accuracy``: the fraction of correct sign predictions."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import check_label_range


class BinaryAccuracy(FunctionNode):
    """Binary accuracy (not differentiable: no gradient flows)."""

    ignore_label = -1

    def forward(self, inputs):
        y, t = inputs
        check_float(self, y)
        if t.dtype.kind != 'i':
            raise invalid_type(self, 't.dtype.kind == i',
                               '{} != i'.format(t.dtype.kind))
        if t.shape != y.shape:
            raise invalid_type(self, 't.shape == x.shape',
                               '{} != {}'.format(t.shape, y.shape))
        check_label_range(self, t, 2, -1)
        xp = backend.get_array_module(y)
        keep = t != self.ignore_label
        # A score of exactly 0 predicts the positive class.
        count = (((y >= 0) == t) & keep).sum()
        total = keep.sum()
        return xp.asarray(count / xp.maximum(total, 1), dtype=y.dtype),


def binary_accuracy(y, t):
    """Computes binary classification accuracy of the minibatch.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Scores of a
            floating point dtype; ``y >= 0`` predicts the positive class.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): Signed integer
            labels of ``y``'s shape: 1 (positive), 0 (negative), -1
            (ignored).

    Returns:
        ~chainer.Variable: A 0-d Variable of ``y``'s dtype (0 when every
        label is ignored). No gradient flows through it.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([-1., 2., 0.5, -0.5], np.float32)
    >>> t = np.array([0, 1, 0, -1], np.int32)
    >>> F.binary_accuracy(y, t).array
    array(0.6666667, dtype=float32)
    """
    return BinaryAccuracy().apply((y, t))[0]
