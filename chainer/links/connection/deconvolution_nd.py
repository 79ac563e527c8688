"""``L.DeconvolutionND`` and its 1-D and 3-D forms."""

import chainer.functions as F
from chainer.links.connection.convolution_nd import _LinkND


class DeconvolutionND(_LinkND):
    """N-dimensional deconvolution (transposed convolution) layer.

    Wraps :func:`~chainer.functions.deconvolution_nd` with the filter
    ``W`` of shape ``(in_channels, out_channels / groups) + ksize`` and the
    bias ``b`` of shape ``(out_channels,)``.
    ``DeconvolutionND(ndim, out_channels, ksize)`` leaves ``in_channels``
    None (lazy ``W``).

    Args:
        ndim (int): Number of spatial axes.
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (int): Number of output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Stride.
        pad (int or tuple of ints): Padding.
        nobias (bool): Without the bias.
        outsize (tuple of ints): Output spatial size (None: the smallest).
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).
        dilate (int or tuple of ints): Dilation.
        groups (int): Number of channel groups.

    >>> import numpy as np
    >>> deconv = DeconvolutionND(1, 1, 2, 3)
    >>> deconv(np.zeros((1, 1, 4), np.float32)).shape
    (1, 2, 6)
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, outsize=None, initialW=None,
                 initial_bias=None, dilate=1, groups=1):
        super().__init__(ndim, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, groups)
        self.outsize = outsize

    def _W_shape(self, in_channels):
        return (in_channels, self.out_channels // self.groups) + self.ksize

    def forward(self, x):
        """Applies the deconvolution to ``x`` ``(n, c, d_1, ..., d_N)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return F.deconvolution_nd(
            x, self.W, self.b, self.stride, self.pad, self.outsize,
            dilate=self.dilate, groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """1-dimensional deconvolution layer: :class:`DeconvolutionND` with
    ``ndim=1``."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad,
                         nobias, outsize, initialW, initial_bias, dilate,
                         groups)


class Deconvolution3D(DeconvolutionND):
    """3-dimensional deconvolution layer: :class:`DeconvolutionND` with
    ``ndim=3``."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad,
                         nobias, outsize, initialW, initial_bias, dilate,
                         groups)
