"""``F.huber_loss``."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.functions.loss._util import check_pair, check_reduce, expand_gy


class HuberLoss(FunctionNode):
    """Huber loss, element-wise or summed along axis 1."""

    def __init__(self, delta, reduce='sum_along_second_axis'):
        self.delta = delta
        self.reduce = reduce

    def forward(self, inputs):
        x, t = inputs
        check_pair(self, x, t, ('x', 't'))
        if self.reduce != 'no' and x.ndim < 2:
            raise invalid_type(
                self, "x.ndim >= 2 (reduce='sum_along_second_axis')",
                'x.ndim = {}'.format(x.ndim))
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        delta = self.delta
        # (in x's dtype also when t's differs, with type_check off)
        diff = (x - t).astype(x.dtype, copy=False)
        absd = abs(diff)
        self._inner = inner = absd <= delta
        # Chainer's arithmetic, delta in x's dtype:
        # min(|d| ** 2, max(2 delta |d| - delta ** 2, delta ** 2)) / 2
        dt = x.dtype.type(delta)
        # (an array, also for 0-d x: NumPy 1 would make a scalar float64)
        y = xp.asarray(xp.minimum(absd * absd, xp.maximum(
            absd * (2 * dt) - dt * dt, dt * dt)), dtype=x.dtype)
        y *= 0.5
        if self.reduce == 'sum_along_second_axis':
            y = y.sum(axis=1)
        self._outer = xp.where(inner, 0, xp.sign(diff) * delta).astype(
            x.dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        if self.reduce == 'sum_along_second_axis':
            gy = expand_gy(gy)
        # d/dx: x - t inside the quadratic zone, +-delta outside.
        inner = self._inner.astype(x.dtype)
        gx = gy * ((x - t) * inner + self._outer)
        return tuple(gx if i == 0 else -gx for i in indexes)


def huber_loss(x, t, delta, reduce='sum_along_second_axis'):
    """Computes the Huber loss.

    Element-wise, with ``d = x - t``: ``d ** 2 / 2`` where
    ``|d| <= delta`` and ``delta * (|d| - delta / 2)`` elsewhere.

    Args:
        x (~chainer.Variable or array): Input (float).
        t (~chainer.Variable or array): Target of ``x``'s shape and dtype.
        delta (float): The point where the loss turns from quadratic to
            linear.
        reduce (str): ``'sum_along_second_axis'`` (sum over axis 1) or
            ``'no'`` (element-wise).

    Returns:
        ~chainer.Variable: The loss, of ``x``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[0., 2.]], np.float32)
    >>> F.huber_loss(x, np.zeros_like(x), 1.0).array
    array([1.5], dtype=float32)
    """
    check_reduce('huber_loss', reduce, ('sum_along_second_axis', 'no'))
    if not delta > 0:
        raise ValueError('huber_loss: delta must be positive, got {}'.format(
            delta))
    return HuberLoss(delta, reduce).apply((x, t))[0]
