"""``L.Inception``: the Inception module of GoogLeNet."""

import chainer.functions as F
from chainer import link
from chainer.links.connection.convolution_2d import Convolution2D


class Inception(link.Chain):
    """Inception module of GoogLeNet.

    Four branches concatenated along the channels, then ReLU: a ``1x1``
    convolution (``conv1``); a ``1x1`` projection and ReLU, then a ``3x3``
    convolution (``proj3``, ``conv3``); the same with ``5x5`` (``proj5``,
    ``conv5``); and ``3x3`` max pooling (stride 1) followed by a ``1x1``
    projection (``projp``).  The output has ``out1 + out3 + out5 +
    proj_pool`` channels and the input's spatial size.

    Args:
        in_channels (int or None): Number of input channels.
        out1, proj3, out3, proj5, out5, proj_pool (int): Channels of the
            branches' convolutions.
        conv_init: Initializer of the filters.
        bias_init: Initializer of the biases.

    >>> import numpy as np
    >>> inc = Inception(3, 2, 2, 3, 2, 3, 2)
    >>> inc(np.zeros((1, 3, 5, 5), np.float32)).shape
    (1, 10, 5, 5)
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5, proj_pool,
                 conv_init=None, bias_init=None):
        super().__init__()
        kw = dict(initialW=conv_init, initial_bias=bias_init)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, out1, 1, **kw)
            self.proj3 = Convolution2D(in_channels, proj3, 1, **kw)
            self.conv3 = Convolution2D(proj3, out3, 3, pad=1, **kw)
            self.proj5 = Convolution2D(in_channels, proj5, 1, **kw)
            self.conv5 = Convolution2D(proj5, out5, 5, pad=2, **kw)
            self.projp = Convolution2D(in_channels, proj_pool, 1, **kw)

    def forward(self, x):
        """Applies the module to ``x`` ``(n, c, h, w)``."""
        out1 = self.conv1(x)
        out3 = self.conv3(F.relu(self.proj3(x)))
        out5 = self.conv5(F.relu(self.proj5(x)))
        pool = self.projp(F.max_pooling_2d(x, 3, stride=1, pad=1))
        return F.relu(F.concat((out1, out3, out5, pool), axis=1))
