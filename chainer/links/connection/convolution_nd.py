"""``L.ConvolutionND`` and its 1-D and 3-D forms."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.links.connection.convolution_2d import _bias, _check_groups
from chainer.utils import conv_nd


class _LinkND(link.Link):
    # The attributes and parameters ConvolutionND and DeconvolutionND share:
    # ``W`` of ``_W_shape(in_channels)`` (made on the first forward when
    # ``in_channels`` is None) and the bias ``b`` ``(out_channels,)``.

    def __init__(self, ndim, in_channels, out_channels, ksize, stride, pad,
                 nobias, initialW, initial_bias, dilate, groups):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.out_channels = out_channels
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = int(groups)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        _check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize(self._W_shape(in_channels))


class ConvolutionND(_LinkND):
    """N-dimensional convolution layer.

    Wraps :func:`~chainer.functions.convolution_nd` with the filter ``W``
    of shape ``(out_channels, in_channels / groups) + ksize`` and the bias
    ``b`` of shape ``(out_channels,)``.  ``ConvolutionND(ndim,
    out_channels, ksize)`` leaves ``in_channels`` None (lazy ``W``).

    Args:
        ndim (int): Number of spatial axes.
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (int): Number of output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Stride.
        pad (int or tuple of ints): Zero padding.
        nobias (bool): Without the bias.
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).
        cover_all (bool): Let the windows cover every input element.
        dilate (int or tuple of ints): Dilation.
        groups (int): Number of channel groups.

    >>> import numpy as np
    >>> conv = ConvolutionND(3, 1, 2, 2)
    >>> conv(np.zeros((1, 1, 3, 3, 3), np.float32)).shape
    (1, 2, 2, 2, 2)
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(ndim, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, groups)
        self.cover_all = cover_all

    def _W_shape(self, in_channels):
        return (self.out_channels, in_channels // self.groups) + self.ksize

    @classmethod
    def _from_W(cls, W, **kwargs):
        return cls(W.ndim - 2, **kwargs)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False,
                    **kwargs):
        """Makes the link with the arrays ``W`` (and ``b``) as its initial
        parameters; ``kwargs``: ``cover_all``, ``dilate``, ``groups``."""
        unknown = set(kwargs) - {'cover_all', 'dilate', 'groups'}
        if unknown:
            raise TypeError('from_params() got unexpected keyword '
                            'argument(s) {}'.format(', '.join(
                                repr(k) for k in sorted(unknown))))
        # Variables (e.g. another link's parameters) give their arrays,
        # which the initializers copy.
        W = variable.as_array(W)
        b = None if b is None else variable.as_array(b)
        out_channels, in_channels = W.shape[:2]
        if b is not None and out_channels != b.size:
            raise ValueError('`out_channels` does not match the size of `b`')
        groups = int(kwargs.get('groups', 1))
        return cls._from_W(
            W, in_channels=in_channels * groups, out_channels=out_channels,
            ksize=W.shape[2:], stride=stride, pad=pad, nobias=nobias,
            initialW=W, initial_bias=b, **kwargs)

    def forward(self, x):
        """Applies the convolution to ``x`` ``(n, c, d_1, ..., d_N)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return F.convolution_nd(
            x, self.W, self.b, self.stride, self.pad, cover_all=self.cover_all,
            dilate=self.dilate, groups=self.groups)


class Convolution1D(ConvolutionND):
    """1-dimensional convolution layer: :class:`ConvolutionND` with
    ``ndim=1`` (input ``(n, c, w)``)."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, cover_all, dilate,
                         groups)

    @classmethod
    def _from_W(cls, W, **kwargs):
        return cls(**kwargs)


class Convolution3D(ConvolutionND):
    """3-dimensional convolution layer: :class:`ConvolutionND` with
    ``ndim=3`` (input ``(n, c, d, h, w)``)."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, cover_all, dilate,
                         groups)

    @classmethod
    def _from_W(cls, W, **kwargs):
        return cls(**kwargs)
