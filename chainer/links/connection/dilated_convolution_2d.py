"""``L.DilatedConvolution2D``: the two-dimensional dilated convolution."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.links.connection.convolution_2d import _bias, _pair


class DilatedConvolution2D(link.Link):
    """Two-dimensional dilated convolutional layer.

    Wraps :func:`~chainer.functions.dilated_convolution_2d` with the filter
    ``W`` of shape ``(out_channels, in_channels, kh, kw)`` and the bias
    ``b`` of shape ``(out_channels,)``.  ``DilatedConvolution2D(
    out_channels, ksize)`` leaves ``in_channels`` None (lazy ``W``).

    Args:
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding.
        dilate (int or pair of ints): Dilation.
        nobias (bool): Without the bias.
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).

    >>> import numpy as np
    >>> conv = DilatedConvolution2D(1, 2, 3, dilate=2)
    >>> conv(np.zeros((1, 1, 5, 5), np.float32)).shape
    (1, 2, 1, 1)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 dilate=1, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.out_channels = out_channels
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))

    def forward(self, x):
        """Applies the dilated convolution to ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return F.dilated_convolution_2d(x, self.W, self.b, self.stride,
                                        self.pad, self.dilate)
