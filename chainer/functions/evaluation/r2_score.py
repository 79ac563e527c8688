"""``F.r2_score``: the coefficient of determination of a regression."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, check_floats

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


class R2_score(FunctionNode):
    """R^2 score (not differentiable: no gradient flows)."""

    def __init__(self, sample_weight, multioutput):
        if sample_weight is not None:
            raise NotImplementedError(
                'r2_score: sample_weight is not supported')
        if multioutput not in ('uniform_average', 'raw_values'):
            raise ValueError('invalid multioutput argument')
        self.multioutput = multioutput

    def forward(self, inputs):
        pred, true = inputs
        check_floats(self, inputs, ('pred', 'true'))
        if pred.shape != true.shape:
            raise invalid_type(self, 'pred.shape == true.shape',
                               '{} != {}'.format(pred.shape, true.shape))
        if pred.ndim == 0:
            raise _AxisError(0, 0)
        xp = backend.get_array_module(pred)
        n = true.shape[0]
        ss_res = ((true - pred) ** 2).sum(axis=0)
        mean = true.sum(axis=0) / max(n, 1)
        ss_tot = ((true - mean) ** 2).sum(axis=0)
        # A constant target (ss_tot == 0) scores 0, as in Chainer.
        nonzero = ss_tot != 0
        r2 = xp.where(nonzero, 1 - ss_res / xp.where(nonzero, ss_tot, 1), 0)
        r2 = xp.asarray(r2, dtype=pred.dtype)
        if self.multioutput == 'uniform_average':
            return xp.asarray(r2.mean(), dtype=pred.dtype),
        return r2,


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """Computes R^2(coefficient of determination) regression score function.

    .. math:: R^2 = 1 - \\frac{\\sum_i (t_i - p_i)^2}{\\sum_i (t_i -
        \\bar{t})^2},

    over the first axis (the examples), for each output; an output whose
    target is constant scores 0.

    Args:
        pred (:class:`~chainer.Variable` or :ref:`ndarray`): The predicted
            values, of a floating point dtype.
        true (:class:`~chainer.Variable` or :ref:`ndarray`): The true
            values, of ``pred``'s shape.
        sample_weight: Not supported (must be None).
        multioutput (str): ``'uniform_average'`` (the mean over the
            outputs) or ``'raw_values'`` (one score per output).

    Returns:
        ~chainer.Variable: The score, of ``pred``'s dtype. No gradient
        flows through it.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> true = np.array([1., 2., 3.], np.float32)
    >>> F.r2_score(np.array([1., 2., 4.], np.float32), true).array
    array(0.5, dtype=float32)
    """
    return R2_score(sample_weight, multioutput).apply((pred, true))[0]
