"""``L.DepthwiseConvolution2D``: the depthwise convolutional layer."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.links.connection.convolution_2d import _bias, _pair


class DepthwiseConvolution2D(link.Link):
    """Two-dimensional depthwise convolutional layer.

    Wraps :func:`~chainer.functions.depthwise_convolution_2d` with the
    filter ``W`` of shape ``(channel_multiplier, in_channels, kh, kw)`` and
    the bias ``b`` of shape ``(channel_multiplier * in_channels,)``; with
    ``in_channels`` None both are made on the first forward.

    Args:
        in_channels (int or None): Number of input channels (None: lazy).
        channel_multiplier (int): Number of filters per input channel.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding.
        nobias (bool): Without the bias.
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).

    >>> import numpy as np
    >>> conv = DepthwiseConvolution2D(3, 2, 3)
    >>> conv(np.zeros((1, 3, 5, 5), np.float32)).shape
    (1, 6, 3, 3)
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            self.b = _bias(nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.channel_multiplier, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def forward(self, x):
        """Applies the depthwise convolution to ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return F.depthwise_convolution_2d(x, self.W, self.b, self.stride,
                                          self.pad)
