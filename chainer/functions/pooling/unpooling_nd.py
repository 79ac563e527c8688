"""Unpooling (the adjoint of sum pooling): ``F.unpooling_nd`` and its 1-
and 3-D forms."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.functions.pooling import _pooling
from chainer.functions.pooling.max_pooling_nd import _check_ndim
from chainer.functions.pooling.max_pooling_nd import _PoolGeometry
from chainer.utils.conv import get_conv_outsize


class UnpoolingND(_PoolGeometry, FunctionNode):
    """Copies each input element to its whole window of the output
    (overlapping windows add up)."""

    is_cudnn_used = False
    return_indices = False
    outs = None  # the output size, as Chainer names it (set by forward)

    def __init__(self, ndim, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        self._geometry(ndim, ksize, stride, pad, cover_all)
        if outsize is not None:
            outsize = tuple(outsize)
        self.outsize = self.outs = outsize

    def forward(self, inputs):
        x, = inputs
        _pooling.check_input(self, x, self.ndim)
        self._in_shape = x.shape
        outsize = self.outsize
        if outsize is None:
            outsize = _pooling.unpool_outsize(x.shape[2:], self.ksize,
                                              self.stride, self.pad,
                                              self.cover_all)
        else:
            if len(outsize) != self.ndim:
                raise ValueError('{}: outsize must have {} elements, got '
                                 '{}'.format(self.label, self.ndim, outsize))
            # as in Chainer: pooling outsize must give back x's size
            expected = tuple(get_conv_outsize(o, k, s, p, self.cover_all)
                             for o, k, s, p in zip(outsize, self.ksize,
                                                   self.stride, self.pad))
            if x.shape[2:] != expected:
                raise invalid_type(
                    self, 'x.shape[2:] == {}'.format(expected),
                    '{} != {} (the size that pooling an output of {} '
                    'gives)'.format(x.shape[2:], expected, outsize))
        if any(o < 0 for o in outsize):  # 0 is an empty output, as in Chainer
            raise invalid_type(self, 'a non-negative output size',
                               'output size {} for input size {}'.format(
                                   outsize, x.shape[2:]))
        self.outs = tuple(outsize)
        return _pooling.sum_unpool(x, self.ksize, self.stride, self.pad,
                                   outsize),

    def backward(self, indexes, grad_outputs):
        return self._grad_class(self).apply(grad_outputs)


class UnpoolingNDGrad(_PoolGeometry, FunctionNode):
    """The gradient of :class:`UnpoolingND`: window sums of ``gy``."""

    def __init__(self, unpoolingnd):
        self._copy_geometry(unpoolingnd)
        self._in_shape = unpoolingnd._in_shape
        self._forward_class = type(unpoolingnd)

    def forward(self, inputs):
        gy, = inputs
        self.outsize = gy.shape[2:]
        # Chainer adds each kernel row first when the windows tile gy
        # exactly (stride == ksize), and offset by offset otherwise.
        tiled = self.stride == self.ksize
        return _pooling.sum_pool(gy, self.ksize, self.stride, self.pad,
                                 self._in_shape[2:], rows_first=tiled),

    def backward(self, indexes, grad_outputs):
        func = self._forward_class.__new__(self._forward_class)
        func._copy_geometry(self)
        func.outsize = self.outsize
        return func.apply(grad_outputs)


UnpoolingND._grad_class = UnpoolingNDGrad


def _unpool(x, ndim, ksize, stride, pad, outsize, cover_all):
    return UnpoolingND(ndim, ksize, stride, pad, outsize,
                       cover_all).apply((x,))[0]


@names_bad_arguments
def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of N-dimensional spatial pooling.

    Each element of ``x`` (``(n, c, d_1, ..., d_N)``) is copied to the
    whole ``ksize`` window it would pool; where windows overlap, the copies
    add up.

    Args:
        x (~chainer.Variable or array): Input ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size.
        stride (int, tuple of ints or None): Stride (``ksize`` if None).
        pad (int or tuple of ints): Padding cropped from the output.
        outsize (None or tuple of ints): Output size (by default the size
            a pooling with the same arguments maps back to ``x``'s).
        cover_all (bool): Whether that pooling used ``cover_all``.

    Returns:
        ~chainer.Variable: The output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 1, 2), np.float32)
    >>> F.unpooling_nd(x, 2, cover_all=False).array
    array([[[1., 1., 1., 1.]]], dtype=float32)
    """
    ndim = len(x.shape[2:])
    return _unpool(x, ndim, ksize, stride, pad, outsize, cover_all)


@names_bad_arguments
def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of 1-dimensional spatial pooling
    (:func:`unpooling_nd` on ``(n, c, d)`` inputs)."""
    _check_ndim('unpooling_1d', x, 1)
    return _unpool(x, 1, ksize, stride, pad, outsize, cover_all)


@names_bad_arguments
def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of 3-dimensional spatial pooling
    (:func:`unpooling_nd` on ``(n, c, d_1, d_2, d_3)`` inputs)."""
    _check_ndim('unpooling_3d', x, 3)
    return _unpool(x, 3, ksize, stride, pad, outsize, cover_all)
