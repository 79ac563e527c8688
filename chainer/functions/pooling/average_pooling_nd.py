"""Average pooling: ``F.average_pooling_nd`` and its 1- and 3-D forms."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.pooling import _pooling
from chainer.functions.pooling.max_pooling_nd import _check_ndim
from chainer.functions.pooling.max_pooling_nd import _PoolGeometry
from chainer.functions._errors import names_bad_arguments


def _divisor(x, ksize, stride, pad, outs, pad_value):
    """The window size, or with ``pad_value=None`` the number of real (not
    padding) elements of each window."""
    if pad_value is not None or not any(pad):
        return x.dtype.type(numpy.prod(ksize))
    xp = backend.get_array_module(x)
    ones = xp.ones((1, 1) + x.shape[2:], x.dtype)
    return _pooling.sum_pool(ones, ksize, stride, pad, outs)


class AveragePoolingND(_PoolGeometry, FunctionNode):
    """Average pooling over the spatial axes of an ``(n, c, *dims)``
    input."""

    is_cudnn_used = False
    return_indices = False

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=False,
                 pad_value=0):
        self._geometry(ndim, ksize, stride, pad, cover_all)
        if pad_value is not None and pad_value != 0:
            raise ValueError('pad_value must be 0 or None, got {!r}'.format(
                pad_value))
        self.pad_value = pad_value

    def forward(self, inputs):
        x, = inputs
        _pooling.check_input(self, x, self.ndim)
        self._in_shape = x.shape
        outs = _pooling.pool_outs(x.shape[2:], self.ksize, self.stride,
                                  self.pad, self.cover_all)
        _pooling.check_outs(self, x.shape[2:], outs)
        self.divisor = _divisor(x, self.ksize, self.stride, self.pad, outs,
                                self.pad_value)
        if x.dtype == numpy.float16 and not numpy.ndim(self.divisor):
            # Chainer takes NumPy's mean of the windows, which sums and
            # divides float16 in float32 before rounding back
            y = _pooling.sum_pool(x.astype(numpy.float32), self.ksize,
                                  self.stride, self.pad, outs)
            y /= numpy.float32(self.divisor)
            return y.astype(x.dtype),
        y = _pooling.sum_pool(x, self.ksize, self.stride, self.pad, outs)
        y /= self.divisor
        return y,

    def backward(self, indexes, grad_outputs):
        return self._grad_class(self).apply(grad_outputs)


class AveragePoolingNDGrad(_PoolGeometry, FunctionNode):
    """The gradient of :class:`AveragePoolingND`."""

    def __init__(self, apoolnd):
        self._copy_geometry(apoolnd)
        self.pad_value = apoolnd.pad_value
        self.divisor = apoolnd.divisor
        self._in_shape = apoolnd._in_shape
        self._forward_class = type(apoolnd)

    def forward(self, inputs):
        gy, = inputs
        if numpy.ndim(self.divisor):
            return _pooling.sum_unpool(gy / self.divisor, self.ksize,
                                       self.stride, self.pad,
                                       self._in_shape[2:]),
        # Chainer scatters gy first and divides the sums once
        gx = _pooling.sum_unpool(gy, self.ksize, self.stride, self.pad,
                                 self._in_shape[2:])
        gx /= self.divisor
        return gx,

    def backward(self, indexes, grad_outputs):
        func = self._forward_class.__new__(self._forward_class)
        func._copy_geometry(self)
        func.pad_value = self.pad_value
        return func.apply(grad_outputs)


AveragePoolingND._grad_class = AveragePoolingNDGrad


def _average(x, ndim, ksize, stride, pad, pad_value):
    return AveragePoolingND(ndim, ksize, stride, pad, False,
                            pad_value).apply((x,))[0]


@names_bad_arguments
def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-dimensionally spatial average pooling function.

    Averages each ``ksize`` window of the spatial axes of ``x``
    (``(n, c, d_1, ..., d_N)``).

    Args:
        x (~chainer.Variable or array): Input ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size.
        stride (int, tuple of ints or None): Stride (``ksize`` if None).
        pad (int or tuple of ints): Padding of each spatial axis.
        pad_value (0 or None): With 0 the padding counts as zeros in the
            average; with None it is left out (each window is divided by
            the number of its real elements).

    Returns:
        ~chainer.Variable: The output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> F.average_pooling_nd(x, 2).array
    array([[[[ 2.5,  4.5],
             [10.5, 12.5]]]], dtype=float32)
    """
    ndim = len(x.shape[2:])
    return _average(x, ndim, ksize, stride, pad, pad_value)


@names_bad_arguments
def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0):
    """1-dimensional spatial average pooling function
    (:func:`average_pooling_nd` on ``(n, c, d)`` inputs)."""
    _check_ndim('average_pooling_1d', x, 1)
    return _average(x, 1, ksize, stride, pad, pad_value)


@names_bad_arguments
def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """3-dimensional spatial average pooling function
    (:func:`average_pooling_nd` on ``(n, c, d_1, d_2, d_3)`` inputs)."""
    _check_ndim('average_pooling_3d', x, 3)
    return _average(x, 3, ksize, stride, pad, pad_value)
