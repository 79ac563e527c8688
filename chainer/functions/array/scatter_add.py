"""``F.scatter_add``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.functions.array.get_item import _as_tuple
from chainer.functions.array.get_item import _normalize_slices, _to_xp


class ScatterAdd(FunctionNode):
    """``a`` with ``b`` added at ``a[slices]`` (repeated indices add up)."""

    def __init__(self, slices):
        self.slices = _as_tuple(slices)
        self._index = _normalize_slices(slices)
        if sum(1 for s in self.slices if s is Ellipsis) > 1:
            raise ValueError('scatter_add: only one Ellipsis is allowed in '
                             'slices, got {!r}'.format(slices))

    def forward(self, inputs):
        a, b = inputs
        n_index = sum(1 for s in self.slices
                      if s is not None and s is not Ellipsis)
        if n_index > a.ndim:
            raise invalid_type(
                self, 'in_types[0].ndim >= {}'.format(n_index),
                '{} < {}'.format(a.ndim, n_index))
        xp = backend.get_array_module(a)
        slices = _to_xp(self._index, xp)
        if a[slices].shape != b.shape:
            raise ValueError(
                'Chainer does not support automatic broadcasting of '
                'variables. (scatter_add: a[slices] has shape {}, b has '
                'shape {})'.format(a[slices].shape, b.shape))
        y = a.copy()
        b = b.astype(a.dtype, copy=False)
        if xp is numpy:
            numpy.add.at(y, slices, b)
        else:
            import cupyx
            cupyx.scatter_add(y, slices, b)
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.get_item import get_item
        gy, = grad_outputs
        return gy, get_item(gy, self._index)


@names_bad_arguments
def scatter_add(a, slices, b):
    """Adds given values to specified elements of an array.

    Returns ``a`` with ``b`` added at ``a[slices]``, where repeated indices
    add up (as :func:`numpy.add.at`). ``a`` is not modified.

    Args:
        a (~chainer.Variable or array): The base array.
        slices: An index, as in :func:`~chainer.functions.get_item`.
        b (~chainer.Variable or array): The values to add, of the shape of
            ``a[slices]`` (no broadcasting; cast to ``a``'s dtype).

    Returns:
        ~chainer.Variable: The sum.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.zeros(3, np.float32)
    >>> F.scatter_add(a, [0, 0, 2], np.ones(3, np.float32)).array
    array([2., 0., 1.], dtype=float32)
    """
    return ScatterAdd(slices).apply((a, b))[0]
