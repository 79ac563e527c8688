"""Sums: ``F.sum`` over axes and ``F.sum_to`` a shape."""

import numpy

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_float, invalid_type,
                                       names_bad_arguments)

# NumPy 1.x summed long reductions in buffers of 8192 elements (pairwise
# within each, the partial sums added in turn); NumPy 2 sums them pairwise
# as a whole.  Chainer's results come from the former, so long trailing
# reductions are done that way here.
_BUFSIZE = 8192
_PAIRWISE_WHOLE = int(numpy.__version__.split('.')[0]) >= 2


def _np_sum(x, axis=None, keepdims=False):
    """``x.sum(axis, keepdims)``, rounded as NumPy 1.x rounds it."""
    if not (_PAIRWISE_WHOLE and type(x) is numpy.ndarray and
            x.dtype.kind == 'f' and x.dtype != numpy.float16):
        return x.sum(axis=axis, keepdims=keepdims)
    nd = x.ndim
    axes = tuple(range(nd)) if axis is None else axis
    k = len(axes)
    n = 1
    for a in axes:
        n *= x.shape[a]
    if k == nd and x.flags.f_contiguous:
        x = x.T  # a full reduction runs in memory order
    if n <= _BUFSIZE or tuple(axes) != tuple(range(nd - k, nd)) or \
            not x.flags.c_contiguous:
        return x.sum(axis=axis, keepdims=keepdims)
    lead = x.shape[:nd - k]
    flat = x.reshape(lead + (n,))
    whole = n - n % _BUFSIZE
    # each buffer summed pairwise (one reduction over all of them, n >
    # _BUFSIZE makes at least two), then the buffers' sums added in turn
    # (cumsum adds left to right)
    parts = flat[..., :whole].reshape(
        lead + (whole // _BUFSIZE, _BUFSIZE)).sum(axis=-1)
    if whole < n:
        rest = flat[..., whole:].sum(axis=-1)
        parts = numpy.concatenate((parts, rest[..., None]), axis=-1)
    y = numpy.cumsum(parts, axis=-1)[..., -1]
    if keepdims:
        y = y.reshape(lead + (1,) * k)
    return y


def _np_mean(x, axis=None, keepdims=False):
    """``x.mean(axis, keepdims)``, rounded as NumPy 1.x rounds it."""
    if not (_PAIRWISE_WHOLE and type(x) is numpy.ndarray and
            x.dtype.kind == 'f' and x.dtype != numpy.float16) or \
            x.size <= _BUFSIZE:
        return x.mean(axis=axis, keepdims=keepdims)
    y = _np_sum(x, axis, keepdims)
    return y / x.dtype.type(x.size // max(y.size, 1))


def _normalize_axis(func, axis, ndim):
    """A sorted tuple of non-negative axes (None stays None)."""
    if axis is None:
        return None
    if isinstance(axis, int):
        axis = (axis,)
    elif not (isinstance(axis, tuple) and
              all(isinstance(a, int) for a in axis)):
        raise chainer_text(
            TypeError('None, int or tuple of int are required'))
    if len(set(axis)) != len(axis):
        # Chainer's texts: a repeat as written, then a repeat after
        # negative axes are normalised.
        raise chainer_text(
            ValueError('duplicate value in axis: {}'.format(axis)))
    out = []
    for a in axis:
        if not -ndim <= a < ndim:
            # Chainer's type-check wording.
            k = a if a >= 0 else -a - 1
            raise invalid_type(func, 'x.ndim > {}'.format(k),
                               '{} <= {}'.format(ndim, k))
        a %= ndim
        if a in out:
            raise chainer_text(ValueError("duplicate value in 'axis'"))
        out.append(a)
    return tuple(sorted(out))


class Sum(FunctionNode):
    """Sum of array elements over given axes."""

    keepdims = False

    def __init__(self, axis=None, keepdims=False):
        # Chainer keeps the axes as given, an int as a 1-tuple
        self.axis = (axis,) if isinstance(axis, int) else axis
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self._axis = _normalize_axis('Sum', self.axis, x.ndim)
        self._in_shape = x.shape
        return utils.force_array(_np_sum(x, self._axis, self.keepdims)),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        gy, = grad_outputs
        axis = self._axis
        shape = self._in_shape
        if not self.keepdims and axis is not None and len(shape) > 0:
            kept = list(gy.shape)
            for a in axis:
                kept.insert(a, 1)
            gy = reshape(gy, tuple(kept))
        # a full sum's 0-d gradient broadcasts as it is
        return broadcast_to(gy, shape),


def sum(x, axis=None, keepdims=False):
    """Sum of array elements over given axes.

    Args:
        x (~chainer.Variable or array): Elements to sum.
        axis (None, int or tuple of int): Axes to sum over (all by default).
        keepdims (bool): Keep the summed axes as axes of length one.

    Returns:
        ~chainer.Variable: The sum.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.sum(x, axis=0).array
    array([3., 5., 7.], dtype=float32)
    """
    return Sum(axis, keepdims).apply((x,))[0]


class SumTo(FunctionNode):
    """Sum elements along axes so that the result has a given shape."""

    def __init__(self, shape):
        self._shape = shape

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return utils.sum_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        return broadcast_to(grad_outputs[0], self._in_shape),


@names_bad_arguments
def sum_to(x, shape):
    """Sums the elements of ``x`` so that the result has ``shape``.

    ``shape`` must be one that ``x``'s shape is broadcast from.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.sum_to(x, (1, 3)).array
    array([[3., 5., 7.]], dtype=float32)
    """
    from chainer.variable import as_variable
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    x_shape = x.shape
    if x_shape == shape:
        return as_variable(x)
    _check_sum_to(x_shape, shape)
    return SumTo(shape).apply((x,))[0]


def _check_sum_to(x_shape, shape):
    lead = len(x_shape) - len(shape)
    ok = lead >= 0 and all(s == 1 or s == xs
                           for s, xs in zip(shape, x_shape[lead:]))
    if not ok:
        raise ValueError(
            'sum_to: cannot sum an array of shape {} to shape {} (the '
            'shape must be one that broadcasts to {})'.format(
                x_shape, shape, x_shape))
