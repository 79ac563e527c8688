"""Max pooling: ``F.max_pooling_nd`` and its 1-, 2- and 3-D forms."""

from chainer.function_node import FunctionNode
from chainer.functions.pooling import _pooling
from chainer.functions._errors import chainer_text, names_bad_arguments


class _PoolGeometry:

    def _geometry(self, ndim, ksize, stride, pad, cover_all):
        self.ndim = ndim
        self.ksize, self.stride, self.pad = _pooling.normalize(
            ndim, ksize, stride, pad)
        self.cover_all = cover_all

    def _copy_geometry(self, other):
        self.ndim = other.ndim
        self.ksize, self.stride, self.pad = \
            other.ksize, other.stride, other.pad
        self.cover_all = other.cover_all


class _Names2D:
    """Chainer's per-axis attribute names of the 2-D pooling nodes (read
    by exporters such as onnx-chainer)."""

    kh = property(lambda self: self.ksize[0])
    kw = property(lambda self: self.ksize[1])
    sy = property(lambda self: self.stride[0])
    sx = property(lambda self: self.stride[1])
    ph = property(lambda self: self.pad[0])
    pw = property(lambda self: self.pad[1])


class MaxPoolingND(_PoolGeometry, FunctionNode):
    """Max pooling over the spatial axes of an ``(n, c, *dims)`` input."""

    is_cudnn_used = False

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        self._geometry(ndim, ksize, stride, pad, cover_all)
        self.return_indices = return_indices

    def forward(self, inputs):
        x, = inputs
        _pooling.check_input(self, x, self.ndim)
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        outs = _pooling.pool_outs(x.shape[2:], self.ksize, self.stride,
                                  self.pad, self.cover_all)
        _pooling.check_outs(self, x.shape[2:], outs)
        y, self.indexes = _pooling.max_pool(x, self.ksize, self.stride,
                                            self.pad, outs)
        return y,

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self).apply(grad_outputs)


class MaxPoolingNDGrad(_PoolGeometry, FunctionNode):
    """The gradient of :class:`MaxPoolingND`: ``gy`` goes to the argmax."""

    def __init__(self, mpoolnd):
        self._copy_geometry(mpoolnd)
        self.indexes = mpoolnd.indexes
        self._in_shape = mpoolnd._in_shape
        self._in_dtype = mpoolnd._in_dtype

    def forward(self, inputs):
        gy, = inputs
        return _pooling.max_unpool(gy, self.indexes, self.ksize, self.stride,
                                   self.pad, self._in_shape[2:]),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDWithIndexes(self).apply(grad_outputs)


class MaxPoolingNDWithIndexes(_PoolGeometry, FunctionNode):
    """Pooling that picks the elements of given argmax indexes (the second
    order gradient of max pooling)."""

    def __init__(self, mpoolnd):
        self._copy_geometry(mpoolnd)
        self.indexes = mpoolnd.indexes
        self._in_shape = mpoolnd._in_shape
        self._in_dtype = mpoolnd._in_dtype

    def forward(self, inputs):
        x, = inputs
        return _pooling.gather(x, self.indexes, self.ksize, self.stride,
                               self.pad, self.indexes.shape[2:]),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self).apply(grad_outputs)


def _pool(x, ndim, ksize, stride, pad, cover_all, return_indices):
    func = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y = func.apply((x,))[0]
    if return_indices:
        return y, func.indexes.astype('int64')
    return y


def _check_ndim(fname, x, n):
    if len(x.shape) - 2 != n:
        raise chainer_text(ValueError(
            "The number of dimensions under channel dimension of the input "
            "'x' should be {}. But the actual ndim was {}.".format(
                n, len(x.shape) - 2)))


@names_bad_arguments
def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """N-dimensionally spatial max pooling function.

    Takes the maximum of each ``ksize`` window of the spatial axes of ``x``
    (``(n, c, d_1, ..., d_N)``), padded with ``-inf``.

    Args:
        x (~chainer.Variable or array): Input ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size.
        stride (int, tuple of ints or None): Stride (``ksize`` if None).
        pad (int or tuple of ints): Padding of each spatial axis.
        cover_all (bool): Round the output size up, so that every input
            element is in some window.
        return_indices (bool): Also return the index of the maximum within
            each window (flattened over the window).

    Returns:
        ~chainer.Variable or tuple: The output, and with
        ``return_indices`` also the int64 array of indices.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> F.max_pooling_nd(x, 2).array
    array([[[[ 5.,  7.],
             [13., 15.]]]], dtype=float32)
    """
    ndim = len(x.shape[2:])
    return _pool(x, ndim, ksize, stride, pad, cover_all, return_indices)


@names_bad_arguments
def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """1-dimensional spatial max pooling function (:func:`max_pooling_nd`
    on ``(n, c, d)`` inputs)."""
    _check_ndim('max_pooling_1d', x, 1)
    return _pool(x, 1, ksize, stride, pad, cover_all, return_indices)


@names_bad_arguments
def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """Spatial max pooling function.

    :func:`max_pooling_nd` on ``(n, c, h, w)`` inputs.

    Args:
        x (~chainer.Variable or array): Input ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size.
        stride (int, pair of ints or None): Stride (``ksize`` if None).
        pad (int or pair of ints): Padding (with ``-inf``).
        cover_all (bool): Round the output size up.
        return_indices (bool): Also return the argmax within each window.

    Returns:
        ~chainer.Variable or tuple: The output (and the indices).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> F.max_pooling_2d(x, 2).shape
    (1, 1, 2, 2)
    """
    _check_ndim('max_pooling_2d', x, 2)
    return _pool(x, 2, ksize, stride, pad, cover_all, return_indices)


@names_bad_arguments
def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """3-dimensional spatial max pooling function (:func:`max_pooling_nd`
    on ``(n, c, d_1, d_2, d_3)`` inputs)."""
    _check_ndim('max_pooling_3d', x, 3)
    return _pool(x, 3, ksize, stride, pad, cover_all, return_indices)
