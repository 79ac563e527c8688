"""Upsampling with the indices of a max pooling: ``F.upsampling_2d``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.functions.pooling import _pooling
from chainer.functions.pooling.max_pooling_nd import _Names2D
from chainer.functions.pooling.max_pooling_nd import _PoolGeometry


def _check_indexes(indexes, ksize):
    """Window positions must be integers in ``[0, kh * kw)``."""
    if indexes.dtype.kind not in 'iu':
        raise TypeError('upsampling_2d: indexes must be an integer array, '
                        'but got dtype {}'.format(indexes.dtype))
    n = ksize[0] * ksize[1]
    if indexes.size:
        low, high = int(indexes.min()), int(indexes.max())
        if low < 0 or high >= n:
            raise IndexError(
                'upsampling_2d: indexes must lie in [0, {}) (a position in '
                'a {}x{} window), but got {}'.format(
                    n, ksize[0], ksize[1], low if low < 0 else high))


class Upsampling2D(_Names2D, _PoolGeometry, FunctionNode):
    """Puts each input element at the window position its index gives."""

    return_indices = False
    outh = property(lambda self: self.outsize and self.outsize[0])
    outw = property(lambda self: self.outsize and self.outsize[1])

    def __init__(self, indexes, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        self._geometry(2, ksize, stride, pad, cover_all)
        self.indexes = indexes
        self.outsize = None if outsize is None else tuple(outsize)

    def forward(self, inputs):
        x, = inputs
        _pooling.check_input(self, x, 2)
        if x.shape != self.indexes.shape:
            raise invalid_type(self, 'x.shape == indexes.shape',
                               '{} != {}'.format(x.shape,
                                                 self.indexes.shape))
        _check_indexes(self.indexes, self.ksize)
        if self.outsize is None:
            self.outsize = _pooling.unpool_outsize(
                x.shape[2:], self.ksize, self.stride, self.pad,
                self.cover_all)
        return _pooling.max_unpool(x, self.indexes, self.ksize, self.stride,
                                   self.pad, self.outsize),

    def backward(self, indexes, grad_outputs):
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(_Names2D, _PoolGeometry, FunctionNode):
    """The gradient of :class:`Upsampling2D`: picks the indexed elements."""

    def __init__(self, upsampling2d):
        self._copy_geometry(upsampling2d)
        self.indexes = upsampling2d.indexes
        self.outsize = upsampling2d.outsize

    def forward(self, inputs):
        gy, = inputs
        return _pooling.gather(gy, self.indexes, self.ksize, self.stride,
                               self.pad, self.indexes.shape[2:]),

    def backward(self, indexes, grad_outputs):
        func = Upsampling2D.__new__(Upsampling2D)
        func._copy_geometry(self)
        func.indexes = self.indexes
        func.outsize = self.outsize
        return func.apply(grad_outputs)


@names_bad_arguments
def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None,
                  cover_all=True):
    """Upsampling using pooling indices.

    The inverse of :func:`~chainer.functions.max_pooling_2d` given its
    ``return_indices=True`` indices: each element of ``x`` goes to the
    position within its window that ``indexes`` names, and the rest of the
    output is zero.

    Args:
        x (~chainer.Variable or array): Input ``(n, c, h, w)``.
        indexes (array): Window indices, the shape of ``x`` (from
            ``max_pooling_2d(..., return_indices=True)``).
        ksize (int or pair of ints): Window size.
        stride (int, pair of ints or None): Stride (``ksize`` if None).
        pad (int or pair of ints): Padding cropped from the output.
        outsize (None or pair of ints): Output size ``(h_O, w_O)``.
        cover_all (bool): Whether the pooling used ``cover_all``.

    Returns:
        ~chainer.Variable: The output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    >>> F.upsampling_2d(y, idx, 2, outsize=(4, 4)).array[0, 0, 1]
    array([0., 5., 0., 7.], dtype=float32)
    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize,
                        cover_all).apply((x,))[0]


