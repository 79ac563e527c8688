"""``F.im2col``: the convolution windows of an image as channels."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.utils.conv_nd import as_tuple, col2im_add, copy_array, im2col_view


class Im2Col(FunctionNode):
    """Lays the ``ksize`` windows of an ``(n, c, h, w)`` image out as
    ``(n, c * kh * kw, out_h, out_w)``."""

    # Chainer's per-axis names (read by exporters and hooks)
    kh = property(lambda self: self.ksize[0])
    kw = property(lambda self: self.ksize[1])
    sy = property(lambda self: self.stride[0])
    sx = property(lambda self: self.stride[1])
    ph = property(lambda self: self.pad[0])
    pw = property(lambda self: self.pad[1])
    dy = property(lambda self: self.dilate[0])
    dx = property(lambda self: self.dilate[1])

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.ksize = as_tuple(ksize, 2)
        self.stride = as_tuple(stride, 2)
        self.pad = as_tuple(pad, 2)
        self.cover_all = cover_all
        self.dilate = as_tuple(dilate, 2)

    def forward(self, inputs):
        x, = inputs
        if x.dtype.kind != 'f':
            raise invalid_type(self, 'x.dtype.kind == f',
                               '{} != f'.format(x.dtype.kind))
        if x.ndim != 4:
            raise invalid_type(self, 'x.ndim == 4', '{} != 4'.format(x.ndim))
        self._in_shape = x.shape
        col = im2col_view(x, self.ksize, self.stride, self.pad, 0,
                          self.cover_all, self.dilate)
        n, c = x.shape[:2]
        col = copy_array(col)  # the windows' rows in runs (C loops)
        return col.reshape((n, c * col.shape[2] * col.shape[3]) + col.shape[4:]),

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad(self).apply(grad_outputs)


class Im2ColGrad(FunctionNode):
    """The gradient of :class:`Im2Col`: the windows summed back (col2im)."""

    def __init__(self, im2col):
        self.im2col = im2col

    def forward(self, inputs):
        gy, = inputs
        f = self.im2col
        n, c = f._in_shape[:2]
        col = gy.reshape((n, c) + f.ksize + gy.shape[2:])
        gx = col2im_add(col, f.stride, f.pad, f._in_shape[2:], f.dilate)
        return gx.copy(),

    def backward(self, indexes, grad_outputs):
        f = self.im2col
        return Im2Col(f.ksize, f.stride, f.pad, f.cover_all,
                      f.dilate).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extract patches from images.

    Every ``ksize`` window of the input becomes a vector along the channel
    axis: the output has shape ``(n, c * kh * kw, out_h, out_w)``, with the
    channel index ``(ci * kh + dy) * kw + dx`` for input channel ``ci`` and
    window offset ``(dy, dx)``.

    Args:
        x (~chainer.Variable or array): Input image ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (int or pair of ints): Stride of the windows.
        pad (int or pair of ints): Zero padding.
        cover_all (bool): Let the windows cover every input pixel.
        dilate (int or pair of ints): Dilation of the windows.

    Returns:
        ~chainer.Variable: Output ``(n, c * kh * kw, out_h, out_w)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> F.im2col(x, 2, stride=2).array[0, :, 0, 0]
    array([0., 1., 4., 5.], dtype=float32)
    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
