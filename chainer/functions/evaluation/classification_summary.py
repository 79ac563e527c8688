"""``F.classification_summary`` (precision, recall, F-beta, support per
class) and its parts ``F.precision``, ``F.recall``, ``F.f1_score``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.evaluation.accuracy import _check_label_inputs
from chainer.functions._errors import names_bad_arguments
from chainer.functions.loss._util import check_label_range


class ClassificationSummary(FunctionNode):
    """Per-class precision, recall, F-beta score and support (not
    differentiable: no gradient flows)."""

    def __init__(self, label_num, beta, ignore_label):
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    def forward(self, inputs):
        y, t = inputs
        _check_label_inputs(self, y, t)
        if y.ndim > 1:
            n = y.shape[1] if self.label_num is None else \
                max(y.shape[1], self.label_num)
            check_label_range(self, t, n, self.ignore_label)
        xp = backend.get_array_module(y)
        # Without label_num the labels are counted from t, ignored ones
        # included (so all-ignored labels -1 give 0 classes, as in Chainer).
        n = self.label_num if self.label_num is not None else \
            int(t.max()) + 1
        pred = y.argmax(axis=1).reshape(-1)
        t = t.reshape(-1)
        keep = t != self.ignore_label
        pred, t = pred[keep], t[keep]

        def count(labels):
            return xp.bincount(labels, minlength=n)[:n]

        true_positive = count(pred[pred == t])
        support = count(t)
        relevant = count(pred)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            precision = true_positive / relevant
            recall = true_positive / support
            b2 = self.beta ** 2
            fbeta = (1 + b2) * precision * recall / (b2 * precision + recall)
        return precision, recall, fbeta, support


@names_bad_arguments
def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Calculates Precision, Recall, F beta Score, and support.

    For each class :math:`c`, with :math:`tp` the examples of class
    :math:`c` predicted as :math:`c`, :math:`pred` those predicted as
    :math:`c` and :math:`support` those of class :math:`c`:

    .. math::
        \\mathrm{precision} = \\frac{tp}{pred},\\quad
        \\mathrm{recall} = \\frac{tp}{support},\\quad
        F_\\beta = \\frac{(1 + \\beta^2) \\cdot \\mathrm{precision} \\cdot
        \\mathrm{recall}}{\\beta^2 \\mathrm{precision} + \\mathrm{recall}}.

    A ratio with a zero denominator is NaN.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Scores of shape
            ``(N, C)`` or ``(N, C, d_1, ..., d_k)``; the prediction is the
            argmax over the second axis.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): Signed integer
            labels of shape ``(N,)`` or ``(N, d_1, ..., d_k)``.
        label_num (int or None): The number of classes (by default
            ``t.max() + 1``).
        beta (float): The weight of recall in the F-beta score.
        ignore_label (int): Labels equal to it are left out.

    Returns:
        tuple of ~chainer.Variable: ``(precision, recall, fbeta, support)``,
        each of shape ``(label_num,)``: three float64 arrays and an integer
        count. No gradient flows through them.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    >>> t = np.array([1, 0, 0], np.int32)
    >>> p, r, f, s = F.classification_summary(y, t)
    >>> p.array, r.array, s.array
    (array([1. , 0.5]), array([0.5, 1. ]), array([2, 1]))
    """
    return ClassificationSummary(label_num, beta, ignore_label).apply((y, t))


@names_bad_arguments
def precision(y, t, label_num=None, ignore_label=-1):
    """Per-class precision: ``(precision, support)`` of
    :func:`classification_summary`.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    >>> F.precision(y, np.array([1, 0, 0], np.int32))[0].array
    array([1. , 0.5])
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[0], ret[-1]


@names_bad_arguments
def recall(y, t, label_num=None, ignore_label=-1):
    """Per-class recall: ``(recall, support)`` of
    :func:`classification_summary`.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    >>> F.recall(y, np.array([1, 0, 0], np.int32))[0].array
    array([0.5, 1. ])
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[1], ret[-1]


@names_bad_arguments
def f1_score(y, t, label_num=None, ignore_label=-1):
    """Per-class F1 score: ``(f1, support)`` of
    :func:`classification_summary` with ``beta=1``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    >>> F.f1_score(y, np.array([1, 0, 0], np.int32))[0].array
    array([0.66666667, 0.66666667])
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[2], ret[-1]
