"""``L.DeformableConvolution2D``: convolution at learned offsets."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.links.connection.convolution_2d import (Convolution2D, _bias,
                                                     _pair)


class DeformableConvolution2D(link.Chain):
    """Two-dimensional deformable convolutional layer.

    A :class:`~chainer.links.Convolution2D` child ``offset_conv`` computes
    ``2 * kh * kw`` offset channels from the input; the child
    ``deform_conv`` (a :class:`DeformableConvolution2DSampler`) convolves
    the input sampled at those offsets
    (:func:`~chainer.functions.deformable_convolution_2d_sampler`).

    Args:
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Padding.
        offset_nobias, offset_initialW, offset_initial_bias: The bias
            switch and initializers of ``offset_conv``.
        deform_nobias, deform_initialW, deform_initial_bias: The same for
            ``deform_conv`` (its ``W`` starts at zero by default, as in
            Chainer, where it is left unfilled).

    >>> l = DeformableConvolution2D(3, 2, 3, pad=1)
    >>> l.offset_conv.W.shape, l.deform_conv.W.shape
    ((18, 3, 3, 3), (2, 3, 3, 3))
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 offset_nobias=False, offset_initialW=None,
                 offset_initial_bias=None, deform_nobias=False,
                 deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        kh, kw = _pair(ksize)
        with self.init_scope():
            self.offset_conv = Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad,
                offset_nobias, offset_initialW, offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad,
                deform_nobias, deform_initialW, deform_initial_bias)

    def forward(self, x):
        """Applies the deformable convolution to ``x`` ``(n, c, h, w)``."""
        return self.deform_conv(x, self.offset_conv(x))


class DeformableConvolution2DSampler(link.Link):
    """The sampling convolution of :class:`DeformableConvolution2D`: ``W``
    ``(out_channels, in_channels, kh, kw)`` and ``b`` ``(out_channels,)``
    applied by ``forward(x, offset)``."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.out_channels = out_channels
        self.initialW = initialW
        with self.init_scope():
            # Chainer leaves W unfilled (zeros in practice, and no random
            # draws) unless an initializer is given.
            self.W = variable.Parameter(initializers._get_initializer(
                0 if initialW is None else initialW))
            self.b = _bias(nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.out_channels)

    def forward(self, x, offset):
        """Convolves ``x`` sampled at ``offset`` ``(n, 2 * kh * kw, out_h,
        out_w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return F.deformable_convolution_2d_sampler(
            x, offset, self.W, self.b, self.stride, self.pad)
