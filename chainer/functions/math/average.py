"""``F.average`` (also ``F.mean``)."""

from chainer.functions._errors import invalid_type
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import _normalize_axis, sum as _sum
from chainer.variable import Variable


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
    axes = _normalize_axis('average', axis, len(shape))
    if weights is None:
        if axes is None:
            n = 1
            for s in shape:
                n *= s
        else:
            n = 1
            for a in axes:
                n *= shape[a]
        return _sum(x, axis=axes, keepdims=keepdims) * (1. / n if n else
                                                        float('nan'))
    if axes is not None and len(axes) > 1:
        raise ValueError('tuple axis is not supported when weights is given '
                         '(average)')
    w_shape = weights.shape
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
        weights = broadcast_to(reshape(weights, tuple(w_full)), shape)
    total = _sum(x * weights if isinstance(x, Variable) else weights * x,
                 axis=axes, keepdims=keepdims)
    norm = _sum(weights, axis=axes, keepdims=keepdims)
    return total / norm
