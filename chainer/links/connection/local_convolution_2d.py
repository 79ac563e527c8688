"""``L.LocalConvolution2D``: convolution with unshared weights."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import utils
from chainer import variable
from chainer.links.connection.convolution_2d import _pair


class LocalConvolution2D(link.Link):
    """Two-dimensional local convolutional layer.

    Like a convolution without padding, but each output position has its
    own filter (:func:`~chainer.functions.local_convolution_2d`): ``W``
    has the shape ``(out_channels, out_h, out_w, in_channels, kh, kw)``
    and ``b`` the shape ``(out_channels, out_h, out_w)``.  Both are made
    on the first forward unless ``in_channels`` and ``in_size`` are given.

    Args:
        in_channels (int or None): Number of input channels.
        out_channels (int): Number of output channels.
        in_size (int or pair of ints): Input spatial size ``(h, w)``.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride.
        nobias (bool): Without the bias.
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).

    >>> import numpy as np
    >>> l = LocalConvolution2D(3, 2, in_size=4, ksize=3)
    >>> l.W.shape
    (2, 2, 2, 3, 3, 3)
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None,
                 stride=1, nobias=False, initialW=None, initial_bias=None,
                 **kwargs):
        # Chainer accepts and ignores extra keyword arguments here.
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.nobias = nobias
        self.out_channels = out_channels
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = variable.Parameter(
                    initializers._get_initializer(initial_bias))
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, _pair(in_size))

    def _initialize_params(self, in_channels, in_size):
        kh, kw = _pair(self.ksize)
        sy, sx = self.stride
        oh = utils.get_conv_outsize(in_size[0], kh, sy, 0)
        ow = utils.get_conv_outsize(in_size[1], kw, sx, 0)
        self.W.initialize((self.out_channels, oh, ow, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.out_channels, oh, ow))

    def forward(self, x):
        """Applies the local convolution to ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return F.local_convolution_2d(x, self.W, self.b, self.stride)
