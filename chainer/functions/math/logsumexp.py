"""``F.logsumexp``: ``log(sum(exp(x)))`` computed without overflow."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_float,
                                       names_bad_arguments)
from chainer.functions.math.sum import _normalize_axis, sum as _sum


class LogSumExp(FunctionNode):
    """Log-sum-exp over given axes."""

    def __init__(self, axis=None):
        if axis is not None and not isinstance(axis, (int, tuple)):
            raise chainer_text(
                TypeError('None, int or tuple of int are required'))
        self.axis = (axis,) if isinstance(axis, int) else axis

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self._axis = _normalize_axis('LogSumExp', self.axis, x.ndim)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        # Shift by the max so that exp never overflows; an all -inf slice
        # (whose max is not finite) is shifted by 0 instead.
        m = xp.amax(x, axis=self._axis, keepdims=True)
        m = xp.where(xp.isfinite(m), m, 0).astype(x.dtype)
        s = xp.exp(x - m).sum(axis=self._axis, keepdims=True)
        with numpy.errstate(divide='ignore'):
            y = xp.log(s) + m
        return y.reshape(_reduced_shape(x.shape, self._axis)),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        from chainer.functions.array.where import where
        from chainer.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        kept = _kept_shape(x.shape, self._axis)
        y = broadcast_to(reshape(y, kept), x.shape)
        gy = broadcast_to(reshape(gy, kept), x.shape)
        # d logsumexp / dx = softmax(x) = exp(x - y), Chainer's form (the
        # same bits).  Where |y| is large, y's rounding (about 1e-3 at
        # |y| ~ 1e4 in float32) would spoil it, so there the softmax is
        # taken with the max shift m instead.
        xp = backend.get_array_module(x)
        big = abs(y.array) >= 1024
        if not big.any():
            return gy * exp(x - y),
        m = xp.amax(x.array, axis=self._axis, keepdims=True)
        m = xp.where(xp.isfinite(m), m, 0).astype(x.dtype)
        e = exp(x - m)
        s = broadcast_to(_sum(e, axis=self._axis, keepdims=True), x.shape)
        return where(big, gy * e / s, gy * exp(x - y)),


def _kept_shape(shape, axis):
    if axis is None:
        return (1,) * len(shape)
    return tuple(1 if i in axis else s for i, s in enumerate(shape))


def _reduced_shape(shape, axis):
    if axis is None:
        return ()
    return tuple(s for i, s in enumerate(shape) if i not in axis)


@names_bad_arguments
def logsumexp(x, axis=None):
    """Log-sum-exp of array elements over a given axis.

    Computes ``log(sum(exp(x), axis))`` stably: the maximum is subtracted
    before exponentiating, so large inputs do not overflow.

    Args:
        x (~chainer.Variable or array): Elements to log-sum-exp.
        axis (None, int, or tuple of int): Axis which a sum is performed
            (all axes when None).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.logsumexp(np.array([1e4, 1e4], np.float32)).array
    array(10000.693, dtype=float32)
    """
    return LogSumExp(axis).apply((x,))[0]
