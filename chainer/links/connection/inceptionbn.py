"""``L.InceptionBN``: the Inception module with batch normalization."""

import chainer
import chainer.functions as F
from chainer.functions._errors import AssertionValueError
from chainer import link
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.normalization.batch_normalization import \
    BatchNormalization


class InceptionBN(link.Chain):
    """Inception module of the new GoogLeNet with BatchNormalization.

    Branches concatenated along the channels, each convolution (without
    bias) followed by batch normalization and ReLU: an optional ``1x1``
    convolution (``conv1``/``conv1n``, when ``out1 > 0``); a ``1x1``
    projection then a ``3x3`` convolution (``proj3``, ``conv3``); a ``1x1``
    projection then two ``3x3`` convolutions (``proj33``, ``conv33a``,
    ``conv33b``); and ``3x3`` max or average pooling, with an optional
    ``1x1`` projection (``poolp``/``poolpn``, when ``proj_pool`` is set).
    With ``stride > 1`` the ``3x3`` convolutions and the pooling are
    strided, and ``out1`` must be 0.

    Args:
        in_channels (int or None): Number of input channels.
        out1, proj3, out3, proj33, out33 (int): Channels of the branches.
        pooltype (str): ``'max'`` or ``'avg'``.
        proj_pool (int or None): Channels of the pooling projection (None:
            no projection).
        stride (int): Stride of the ``3x3`` convolutions and the pooling.
        conv_init: Initializer of the filters.
        dtype: Dtype of the batch normalizations' parameters.

    >>> import numpy as np
    >>> inc = InceptionBN(3, 2, 2, 3, 2, 3, 'max', proj_pool=2)
    >>> inc(np.ones((2, 3, 4, 4), np.float32)).shape
    (2, 10, 4, 4)
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33,
                 pooltype, proj_pool=None, stride=1, conv_init=None,
                 dtype=None):
        super().__init__()
        if pooltype not in ('max', 'avg'):
            raise NotImplementedError(
                "InceptionBN: pooltype must be 'max' or 'avg', got "
                '{!r}'.format(pooltype))
        if out1 > 0 and stride != 1:
            raise AssertionValueError(
                'InceptionBN: out1 must be 0 when stride > 1, got out1={} '
                'with stride={}'.format(out1, stride))
        if out1 > 0 and proj_pool is None:
            raise AssertionValueError(
                'InceptionBN: proj_pool must be given when out1 > 0 '
                '(out1={})'.format(out1))
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        dtype = chainer.get_dtype(dtype)

        def conv(n_in, n_out, ksize, stride=1, pad=0):
            return Convolution2D(n_in, n_out, ksize, stride, pad, nobias=True,
                                 initialW=conv_init)

        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, stride, 1)
            self.proj33 = conv(in_channels, proj33, 1)
            self.conv33a = conv(proj33, out33, 3, 1, 1)
            self.conv33b = conv(out33, out33, 3, stride, 1)
            self.proj3n = BatchNormalization(proj3, dtype=dtype)
            self.conv3n = BatchNormalization(out3, dtype=dtype)
            self.proj33n = BatchNormalization(proj33, dtype=dtype)
            self.conv33an = BatchNormalization(out33, dtype=dtype)
            self.conv33bn = BatchNormalization(out33, dtype=dtype)
            if out1 > 0:
                self.conv1 = conv(in_channels, out1, 1)
                self.conv1n = BatchNormalization(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1)
                self.poolpn = BatchNormalization(proj_pool, dtype=dtype)

    def forward(self, x):
        """Applies the module to ``x`` ``(n, c, h, w)``."""
        relu = F.relu
        outs = []
        if self.out1 > 0:
            outs.append(relu(self.conv1n(self.conv1(x))))
        h3 = relu(self.proj3n(self.proj3(x)))
        outs.append(relu(self.conv3n(self.conv3(h3))))
        h33 = relu(self.proj33n(self.proj33(x)))
        h33 = relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == 'max':
            p = F.max_pooling_2d(x, 3, stride=self.stride, pad=1,
                                 cover_all=False)
        else:
            p = F.average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return F.concat(outs, axis=1)
