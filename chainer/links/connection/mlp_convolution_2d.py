"""``L.MLPConvolution2D``: the "mlpconv" layer of Network in Network."""

from chainer import link
from chainer.functions.activation.relu import relu
from chainer.links.connection.convolution_2d import Convolution2D


class MLPConvolution2D(link.ChainList):
    """Two-dimensional MLP convolution layer of Network in Network.

    A :class:`~chainer.links.Convolution2D` with ``ksize``, ``stride`` and
    ``pad`` and ``out_channels[0]`` outputs, followed by ``1x1``
    convolutions to ``out_channels[1:]``; ``activation`` is applied
    between the convolutions (not after the last one).
    ``MLPConvolution2D(out_channels, ksize)`` leaves ``in_channels`` None.

    Args:
        in_channels (int or None): Number of input channels (None: lazy).
        out_channels (tuple of ints): Output channels of each convolution.
        ksize (int or pair of ints): Filter size of the first convolution.
        stride (int or pair of ints): Stride of the first convolution.
        pad (int or pair of ints): Padding of the first convolution.
        activation: The activation function.
        conv_init: Initializer of the filters (keyword).
        bias_init: Initializer of the biases (keyword).

    >>> import numpy as np
    >>> m = MLPConvolution2D(3, (4, 5), 3)
    >>> m(np.zeros((1, 3, 5, 5), np.float32)).shape
    (1, 5, 3, 3)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 activation=relu, *args, **kwargs):
        # A positional argument after ``activation`` was the removed
        # ``wscale``.
        if args or 'wscale' in kwargs:
            # Chainer: a TypeError for the positional form, a ValueError
            # for the keyword
            raise (TypeError if args else ValueError)(
                'wscale is not supported anymore. Use conv_init and '
                'bias_init argument to change the scale of initial '
                'parameters.')
        conv_init = kwargs.pop('conv_init', None)
        bias_init = kwargs.pop('bias_init', None)
        if kwargs:
            raise TypeError('__init__() got unexpected keyword argument(s) {}'
                            .format(', '.join(repr(k) for k in kwargs)))
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        if len(out_channels) == 0:
            raise ValueError('MLPConvolution2D: out_channels must not be '
                             'empty')
        convs = [Convolution2D(in_channels, out_channels[0], ksize, stride,
                               pad, initialW=conv_init,
                               initial_bias=bias_init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(Convolution2D(n_in, n_out, 1, initialW=conv_init,
                                       initial_bias=bias_init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x):
        """Applies the convolutions to ``x`` ``(n, c, h, w)``."""
        f = self.activation
        for conv in self[:-1]:
            x = f(conv(x))
        return self[-1](x)
