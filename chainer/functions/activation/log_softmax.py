"""``F.log_softmax``: x - logsumexp(x) along an axis, computed stably."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import expr_bool_error


def _check_axis(func, x, axis):
    """The axis as a non-negative int; x of a float dtype.  (Chainer's
    check is a chained comparison, which fails on its Expr: a RuntimeError
    for a bad axis or dtype alike.)"""
    if not isinstance(axis, int):
        raise TypeError('{}: axis must be an int, got {!r}'.format(
            func.label, axis))
    if not -x.ndim <= axis < x.ndim or x.dtype.kind != 'f':
        raise expr_bool_error()
    return axis % x.ndim


_EXACT_LIMIT = 1024


def _log_softmax(x, axis, xp):
    # Shift by the maximum so exp never overflows (finite for |x| ~ 1e4).
    # x - (m + log(sum(exp(x - m)))) is Chainer's rounding order (so values
    # match it bit for bit); where |m| is large that form loses log(s) in
    # m's rounding, so there (x - m) - log(s) is taken instead (no sync).
    m = x.max(axis=axis, keepdims=True)
    e = x - m
    xp.exp(e, out=e)
    log_s = xp.log(e.sum(axis=axis, keepdims=True))
    exact = abs(m) < _EXACT_LIMIT
    if xp is numpy and exact.all():  # the common case, in one more pass
        return x - (m + log_s)
    return xp.where(exact, x - (m + log_s), (x - m) - log_s)


class LogSoftmax(FunctionNode):
    """Log-softmax along an axis."""

    def __init__(self, axis=1):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        self._axis = _check_axis(self, x, self.axis)
        self.retain_outputs((0,))
        if x.size == 0:
            return x.copy(),
        return _log_softmax(x, self._axis, backend.get_array_module(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return LogSoftmaxGrad(self._axis).apply((y, grad_outputs[0]))


class LogSoftmaxGrad(FunctionNode):
    """``gx = gy - exp(y) sum(gy)`` (the sum along the axis) from the
    log-softmax's output ``y``, as one node, so that its own gradients
    (``-ggx exp(y) sum(gy)`` and ``ggx - sum(ggx exp(y))``) round as
    Chainer's do."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        xp = backend.get_array_module(y)
        return gy - xp.exp(y) * gy.sum(axis=self.axis, keepdims=True),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.math.exponential import exp
        from chainer.functions.math.sum import sum as _sum
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        exp_y = exp(y)
        ret = []
        if 0 in indexes:
            gy_sum = broadcast_to(_sum(gy, self.axis, True), gy.shape)
            ret.append(-ggx * exp_y * gy_sum)
        if 1 in indexes:
            a = broadcast_to(_sum(ggx * exp_y, self.axis, True), gy.shape)
            ret.append(ggx - a)
        return ret


def log_softmax(x, axis=1):
    """Channel-wise log-softmax function.

    .. math:: y_i = x_i - \\log \\sum_j \\exp(x_j),

    the sum running along ``axis``. It is computed stably (the maximum is
    subtracted first), so it is finite even where ``log(softmax(x))``
    underflows to ``-inf``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        axis (int): The axis along which the softmax is normalized.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.log_softmax(np.array([[0., 0.]], np.float32)).array
    array([[-0.6931472, -0.6931472]], dtype=float32)
    """
    y, = LogSoftmax(axis).apply((x,))
    return y
