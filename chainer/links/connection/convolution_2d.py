"""``L.Convolution2D``: the two-dimensional convolutional layer."""

import chainer
import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable


def _pair(x):
    if hasattr(x, '__getitem__'):
        return tuple(x)
    return x, x


def _init_kwargs(kwargs, **defaults):
    """Chainer's ``**kwargs`` options of a conv link's ``__init__``."""
    if 'deterministic' in kwargs:
        raise ValueError(
            'deterministic argument is not supported anymore. Use '
            "chainer.using_config('cudnn_deterministic', value) context "
            'where value is either `True` or `False`.')
    values = [kwargs.pop(name, default) for name, default in defaults.items()]
    if kwargs:
        raise TypeError('__init__() got unexpected keyword argument(s) {}'
                        .format(', '.join(repr(k) for k in kwargs)))
    return values


def _check_groups(in_channels, out_channels, groups):
    if out_channels % groups != 0:
        raise ValueError('the number of output channels must be divisible '
                         'by the number of groups')
    if in_channels % groups != 0:
        raise ValueError('the number of input channels must be divisible '
                         'by the number of groups')


def _bias(nobias, initial_bias, size):
    """The bias Parameter (None with ``nobias``); default value 0."""
    if nobias:
        return None
    if initial_bias is None:
        initial_bias = 0
    return variable.Parameter(initializers._get_initializer(initial_bias),
                              size)


class Convolution2D(link.Link):
    """Two-dimensional convolutional layer.

    Wraps :func:`~chainer.functions.convolution_2d` with the filter ``W``
    of shape ``(out_channels, in_channels / groups, kh, kw)`` and the bias
    ``b`` of shape ``(out_channels,)``.  ``Convolution2D(out_channels,
    ksize)`` (two arguments) leaves ``in_channels`` None: ``W`` is made on
    the first forward from the input's channel count.

    Args:
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding.
        nobias (bool): Without the bias.
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).
        dilate (int or pair of ints): Dilation (keyword).
        groups (int): Number of channel groups (keyword).

    >>> import numpy as np
    >>> conv = Convolution2D(1, 2, 3, pad=1)
    >>> conv(np.zeros((1, 1, 4, 4), np.float32)).shape
    (1, 2, 4, 4)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        dilate, groups = _init_kwargs(kwargs, dilate=1, groups=1)
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.cudnn_fast = chainer.get_compute_mode() == 'cudnn_fast'
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.in_channels = in_channels
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
            (self.out_channels, in_channels // self.groups, kh, kw))

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False,
                    **kwargs):
        """Makes the link with the arrays ``W`` (and ``b``) as its initial
        parameters; ``kwargs`` as the constructor's (dilate, groups)."""
        dilate, groups = _init_kwargs(kwargs, dilate=1, groups=1)
        # Variables (e.g. another link's parameters) give their arrays,
        # which the initializers copy.
        W = variable.as_array(W)
        b = None if b is None else variable.as_array(b)
        out_channels, in_channels, kh, kw = W.shape
        if b is not None and out_channels != b.size:
            raise ValueError('`out_channels` does not match the size of `b`')
        return cls(in_channels * int(groups), out_channels, (kh, kw), stride,
                   pad, nobias, initialW=W, initial_bias=b, dilate=dilate,
                   groups=groups)

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def forward(self, x):
        """Applies the convolution to ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            # (unpacked as Chainer does: a ValueError for a wrong rank)
            _, c, _, _ = x.shape
            self._initialize_params(c)
        return F.convolution_2d(
            x, self.W, self.b, self.stride, self.pad, dilate=self.dilate,
            groups=self.groups, cudnn_fast=self.cudnn_fast)
