"""``F.average`` (also ``F.mean``)."""

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_floats,
                                       invalid_type, names_bad_arguments)
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import _normalize_axis, _np_mean
from chainer.functions.math.sum import sum as _sum
from chainer.variable import Variable


class Mean(FunctionNode):
    """Mean of array elements over given axes (``F.mean`` without weights).

    Forward is the backend's own ``mean`` (so float16 accumulates in
    float32 and the values match NumPy's); backward spreads ``gy / n``.
    """

    def __init__(self, axis=None, keepdims=False):
        # Chainer keeps the axes as given, an int as a 1-tuple
        self.axis = (axis,) if isinstance(axis, int) else axis
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self._in_shape = shape = x.shape
        axis = self._axis = _normalize_axis('Mean', self.axis, x.ndim)
        if axis is None:
            n = x.size
        else:
            n = 1
            for a in axis:
                n *= shape[a]
        # Like Chainer, an empty reduction is an error rather than NaN.
        self.multiplier = 1.0 / n
        return utils.force_array(_np_mean(x, axis, self.keepdims)),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        gy = grad_outputs[0] * self.multiplier
        shape = self._in_shape
        if not self.keepdims and len(shape) > 0:
            axis = range(len(shape)) if self._axis is None else self._axis
            kept = list(gy.shape)
            for a in sorted(axis):
                kept.insert(a, 1)
            gy = reshape(gy, tuple(kept))
        return broadcast_to(gy, shape),


@names_bad_arguments
def average(x, axis=None, weights=None, keepdims=False):
    """Weighted average of array elements over given axes.

    Args:
        x (~chainer.Variable or array): Elements to average.
        axis (None, int or tuple of int): Axes to average over (all when
            None).
        weights (~chainer.Variable or array): Weights, of ``x``'s shape, or
            1-D along a single ``axis``.
        keepdims (bool): Keep the reduced axes as axes of length one.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.average(np.array([1., 2., 3.], np.float32)).array
    array(2., dtype=float32)
    """
    shape = x.shape
    axes = _normalize_axis('Mean' if weights is None else 'average', axis,
                           len(shape))
    if weights is None:
        return Mean(axis, keepdims).apply((x,))[0]
    check_floats('average', (x, weights), ('x', 'weights'))
    if axes is not None and len(axes) > 1:
        raise ValueError('tuple axis is not supported when weights is given '
                         '(average)')
    w_shape = weights.shape
    norm = None
    if w_shape != shape:
        if axes is None or len(w_shape) != 1 or \
                w_shape[0] != shape[axes[0]]:
            raise invalid_type(
                'average', 'weights.shape == x.shape, or weights.ndim == 1 '
                'and weights.shape[0] == x.shape[axis]',
                'weights.shape = {}, x.shape = {}, axis = {}'.format(
                    w_shape, shape, axis))
        w_full = [1] * len(shape)
        w_full[axes[0]] = w_shape[0]
        # The 1-D weights are summed before broadcasting, as in Chainer
        # (the gradient of the weights then rounds the same way).
        norm = _sum(weights)
        weights = broadcast_to(reshape(weights, tuple(w_full)), shape)
    total = _sum(x * weights if isinstance(x, Variable) else weights * x,
                 axis=axes, keepdims=keepdims)
    if norm is None:
        norm = _sum(weights, axis=axes, keepdims=keepdims)
    return total / norm
