"""``L.Deconvolution2D``: the two-dimensional deconvolutional layer."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.links.connection.convolution_2d import (_bias, _check_groups,
                                                     _init_kwargs, _pair)


class Deconvolution2D(link.Link):
    """Two dimensional deconvolution (transposed convolution) layer.

    Wraps :func:`~chainer.functions.deconvolution_2d` with the filter ``W``
    of shape ``(in_channels, out_channels / groups, kh, kw)`` and the bias
    ``b`` of shape ``(out_channels,)``.  ``Deconvolution2D(out_channels,
    ksize)`` leaves ``in_channels`` None (lazy ``W``).

    Args:
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Padding.
        nobias (bool): Without the bias.
        outsize (tuple of ints): Output size ``(h, w)`` (None: the
            smallest one).
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).
        dilate (int or pair of ints): Dilation (keyword).
        groups (int): Number of channel groups (keyword).

    >>> import numpy as np
    >>> deconv = Deconvolution2D(1, 2, 3, stride=2)
    >>> deconv(np.zeros((1, 1, 2, 2), np.float32)).shape
    (1, 2, 5, 5)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 **kwargs):
        super().__init__()
        dilate, groups = _init_kwargs(kwargs, dilate=1, groups=1)
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.outsize = (None, None) if outsize is None else outsize
        self.out_channels = out_channels
        self.groups = int(groups)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        _check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize(
            (in_channels, self.out_channels // self.groups, kh, kw))

    def forward(self, x):
        """Applies the deconvolution to ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        outsize = None if self.outsize == (None, None) else self.outsize
        return F.deconvolution_2d(
            x, self.W, self.b, self.stride, self.pad, outsize,
            dilate=self.dilate, groups=self.groups)
