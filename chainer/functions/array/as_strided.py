"""``F.as_strided``: a strided view of an array's storage, differentiable.

The storage is the memory that ``x`` views (its base array when ``x`` is a
view of a contiguous array, else ``x`` itself); strides and offsets count
elements.  The gradient scatter-adds ``gy`` into the storage (views that
overlap add up) and reads ``x``'s elements back from it.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import chainer_text, names_bad_arguments


def _pointer(a):
    return a.ctypes.data if isinstance(a, numpy.ndarray) else a.data.ptr


def _owner(x):
    """The array that owns x's memory (following views, and the objects
    that ``as_strided`` views hang on)."""
    base = x
    while getattr(base, 'base', None) is not None:
        base = base.base
    return base


def _storage(x):
    """(flat storage, the storage index of each element of x)."""
    xp = backend.get_array_module(x)
    base = _owner(x) if x.base is not None else None
    item = x.itemsize
    if base is not None and hasattr(base, 'dtype') and \
            base.dtype == x.dtype and base.flags.c_contiguous:
        offset, rem = divmod(_pointer(x) - _pointer(base), item)
        if rem == 0 and all(s % item == 0 for s in x.strides):
            index = _index(xp, x.shape, [s // item for s in x.strides],
                           offset)
            return base.reshape(-1), index
    return xp.ascontiguousarray(x).reshape(-1), \
        xp.arange(x.size).reshape(x.shape)


def _index(xp, shape, strides, offset):
    index = xp.full(shape, offset, numpy.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        step = xp.arange(n, dtype=numpy.int64) * s
        index += step.reshape((n,) + (1,) * (len(shape) - axis - 1))
    return index


def _check_inside(index, size):
    if index.size:
        if int(index.max()) >= size:
            raise chainer_text(ValueError(
                'Out of buffer: too large index was specified'))
        if int(index.min()) < 0:
            raise chainer_text(ValueError(
                'Out of buffer: too small index was specified'))


def _gather(x, shape, strides, storage_offset):
    """(the strided view of x's storage as a new array, the storage index
    of each element of x, that of each element of the view, the storage's
    size)."""
    xp = backend.get_array_module(x)
    storage, in_index = _storage(x)
    if storage_offset is None:
        storage_offset = int(in_index.ravel()[0]) if x.size else 0
    out_index = _index(xp, shape, strides, storage_offset)
    _check_inside(out_index, storage.size)
    return storage[out_index], in_index, out_index, storage.size


def _stride_array(x, shape, strides, storage_offset):
    """A view of x's storage with the element ``storage_offset + sum(i *
    stride)`` at each index of ``shape`` (strides and offset in elements),
    as Chainer's private helper of that name makes it: a view sharing the
    memory (checked to lie inside the storage)."""
    xp = backend.get_array_module(x)
    shape, strides = tuple(shape), tuple(strides)
    storage, in_index = _storage(x)
    if storage_offset is None:
        storage_offset = int(in_index.ravel()[0]) if x.size else 0
    _check_inside(_index(xp, shape, strides, storage_offset), storage.size)
    item = storage.itemsize
    if xp is numpy:
        from numpy.lib.stride_tricks import as_strided
    else:
        from cupy.lib.stride_tricks import as_strided
    return as_strided(storage[storage_offset:], shape,
                      tuple(s * item for s in strides))


class AsStrided(FunctionNode):
    """A strided view of the input's storage."""

    def __init__(self, shape, strides, storage_offset=None):
        self.shape = tuple(int(s) for s in shape)
        self.strides = tuple(strides)
        for s in self.strides:
            if not isinstance(s, (int, numpy.integer)):
                raise TypeError("'{}' object cannot be interpreted as an "
                                'integer'.format(type(s).__name__))
        if len(self.strides) != len(self.shape):
            raise ValueError('strides, if given, must be the same length as '
                             'shape')
        self.storage_offset = storage_offset

    def forward(self, inputs):
        x, = inputs
        y, self._in_index, self._out_index, self._n = _gather(
            x, self.shape, self.strides, self.storage_offset)
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.get_item import GetItemGrad, get_item
        gy, = grad_outputs
        if gy.dtype.kind != 'f':
            raise TypeError(
                'as_strided: only floating point arrays can be '
                'differentiated, got {}'.format(gy.dtype))
        g = GetItemGrad(self._out_index, (self._n,), gy.dtype).apply(
            (gy,))[0]
        gx = get_item(g, self._in_index)
        xp = backend.get_array_module(gy)
        counts = xp.bincount(self._in_index.ravel(), minlength=self._n)
        if self._in_index.size and int(counts.max()) > 1:
            # Elements of x that share their memory share its gradient
            # equally, as in Chainer.
            gx = gx / counts[self._in_index].astype(gy.dtype)
        return gx,


@names_bad_arguments
def as_strided(x, shape, strides, storage_offset=None):
    """Create a new view of array with the given shape, strides, and offset.

    Args:
        x (~chainer.Variable or array): The array whose storage is viewed.
        shape (tuple of ints): The shape of the result.
        strides (tuple of ints): The strides of the result, in elements
            (not bytes).
        storage_offset (int): Where the result starts in the storage, in
            elements; by default where ``x`` starts.

    Returns:
        ~chainer.Variable: The strided view (elements may repeat; their
        gradients add up).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(4, dtype=np.float32)
    >>> F.as_strided(x, (3, 2), (1, 1)).array
    array([[0., 1.],
           [1., 2.],
           [2., 3.]], dtype=float32)
    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
