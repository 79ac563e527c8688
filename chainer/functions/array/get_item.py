"""``F.get_item`` (``Variable.__getitem__``) and its gradient, a scatter-add.

Basic indexing (ints, slices, Ellipsis, None) gives a view; integer and
boolean arrays select copies.  The gradient adds ``gy`` into zeros at the
selected places, summing repeated indices.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable
from chainer.functions._errors import names_bad_arguments


def _normalize_slices(slices):
    """Makes the index one NumPy and CuPy understand the same way."""
    if isinstance(slices, list):
        # A list of lists/arrays, or holding anything but numbers (a slice,
        # None, Ellipsis), is a tuple index (as Chainer does); a flat list
        # of numbers is one integer (or boolean) array.
        if _is_tuple_like(slices):
            slices = tuple(slices)
        else:
            return numpy.asarray(slices) if slices else \
                numpy.asarray(slices, dtype=numpy.intp)
    if isinstance(slices, tuple):
        return tuple(_one(s) for s in slices)
    return _one(slices)


def _as_tuple(slices):
    """Chainer's ``slices`` attribute (exporters read it): the index as a
    tuple, lists kept as given."""
    if isinstance(slices, tuple):
        return slices
    if isinstance(slices, list) and _is_tuple_like(slices):
        return tuple(slices)
    return slices,


def _is_tuple_like(items):
    return any(isinstance(s, (list, numpy.ndarray, slice)) or s is None or
               s is Ellipsis or backend.is_gpu_array(s) for s in items)


def _one(s):
    if isinstance(s, list):
        return numpy.asarray(s) if s else numpy.asarray(s, numpy.intp)
    if isinstance(s, Variable):
        return s.array
    return s


def _is_basic(slices):
    items = slices if isinstance(slices, tuple) else (slices,)
    for s in items:
        if not (s is None or s is Ellipsis or isinstance(s, (int, slice)) or
                isinstance(s, numpy.integer)):
            return False
    return True


def _to_xp(slices, xp):
    if xp is numpy:
        return slices

    def conv(s):
        if isinstance(s, numpy.ndarray):
            return xp.asarray(s)
        return s
    if isinstance(slices, tuple):
        return tuple(conv(s) for s in slices)
    return conv(slices)


class GetItem(FunctionNode):
    """Extracts elements of an array with an index."""

    def __init__(self, slices):
        self.slices = _as_tuple(slices)
        self._index = _normalize_slices(slices)

    def forward(self, xs):
        x, = xs
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        xp = backend.get_array_module(x)
        # a bad index raises NumPy's own IndexError, as in Chainer
        return x[_to_xp(self._index, xp)],

    def backward(self, indexes, gy):
        return GetItemGrad(self._index, self._in_shape,
                           self._in_dtype).apply(gy)


class GetItemGrad(FunctionNode):
    """The gradient of GetItem: scatter-adds gy into zeros."""

    def __init__(self, slices, in_shape, in_dtype):
        self.slices = slices
        self._in_shape = in_shape
        self._in_dtype = in_dtype

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, self._in_dtype)
        slices = _to_xp(self.slices, xp)
        if _is_basic(self.slices):
            gx[slices] = gy
        elif xp is numpy:
            numpy.add.at(gx, slices, gy)
        else:
            import cupyx
            cupyx.scatter_add(gx, slices, gy)
        return gx,

    def backward(self, indexes, ggx):
        return GetItem(self.slices).apply(ggx)


@names_bad_arguments(keep=(IndexError,))  # NumPy's text, as Chainer's
def get_item(x, slices):
    """Extracts elements from an array with an index, differentiably.

    Args:
        x (~chainer.Variable or array): The variable to index.
        slices: An int, slice, Ellipsis, None, integer or boolean array
            (or list), or a tuple of them, as in NumPy.

    Returns:
        ~chainer.Variable: The selected elements.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.get_item(x, (1, slice(None, None, 2))).array
    array([3., 5.], dtype=float32)
    """
    return GetItem(slices).apply((x,))[0]


def install_variable_get_item():
    Variable.__getitem__ = get_item
