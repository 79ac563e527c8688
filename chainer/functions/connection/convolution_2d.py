"""Two-dimensional convolution: ``F.convolution_2d``.

The 2-D members of the N-d convolution family (:mod:`.convolution_nd`),
kept as their own classes for Chainer's names and 2-D attributes.
"""

import numpy

from chainer.functions.connection import _conv
from chainer.functions.connection.convolution_nd import ConvolutionND
from chainer.functions.connection.convolution_nd import ConvolutionNDGradW
from chainer.functions._errors import names_bad_arguments


class _Attrs2D:
    """Chainer's per-axis attribute names of the 2-D nodes."""

    _two_d = True
    sy = property(lambda self: self.stride[0])
    sx = property(lambda self: self.stride[1])
    ph = property(lambda self: self.pad[0])
    pw = property(lambda self: self.pad[1])
    dy = property(lambda self: self.dilate[0])
    dx = property(lambda self: self.dilate[1])


class Convolution2DFunction(_Attrs2D, ConvolutionND):
    """Two-dimensional convolution of ``(x, W[, b])``."""

    cudnn_fast = False

    def __init__(self, stride=1, pad=0, cover_all=False, **kwargs):
        self.cudnn_fast = kwargs.pop('cudnn_fast', False)
        dilate, groups = _conv.parse_conv_kwargs(
            'Convolution2DFunction', kwargs)
        self._set(2, stride, pad, cover_all, dilate, groups)

    def forward(self, inputs):
        if self.cudnn_fast:
            # The channel-last cuDNN path, which chainer-ng does not have
            # (nor does Chainer on the CPU).
            if isinstance(inputs[0], numpy.ndarray):
                raise RuntimeError(
                    "'cudnn_fast' can't be used in the CPU backend")
            raise RuntimeError("'cudnn_fast' requires cuDNN to work")
        return super().forward(inputs)


class Convolution2DGradW(_Attrs2D, ConvolutionNDGradW):
    """The filter gradient of a 2-D convolution, from ``(x, gy)``."""


@names_bad_arguments
def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   **kwargs):
    """Two-dimensional convolution function.

    Convolves ``x`` of shape ``(n, c_I, h_I, w_I)`` with filters ``W`` of
    shape ``(c_O, c_I // groups, h_K, w_K)``. The output has shape
    ``(n, c_O, h_O, w_O)`` with
    ``h_O = (h_I + 2 h_P - (h_K - 1) * d_Y - 1) // s_Y + 1`` (rounded up
    instead of down with ``cover_all``), and the same for the width.

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, h_I, w_I)``.
        W (~chainer.Variable or array): Filters ``(c_O, c_I / groups, h_K,
            w_K)``.
        b (~chainer.Variable or array): Bias ``(c_O,)`` (optional).
        stride (int or pair of ints): Stride ``(s_Y, s_X)``.
        pad (int or pair of ints): Zero padding ``(h_P, w_P)``.
        cover_all (bool): Let the windows cover every input pixel.
        dilate (int or pair of ints): Dilation ``(d_Y, d_X)`` (keyword).
        groups (int): Number of channel groups (keyword).

    Returns:
        ~chainer.Variable: Output ``(n, c_O, h_O, w_O)``.

    The removed ``deterministic`` argument raises ``ValueError``; use
    ``chainer.using_config('cudnn_deterministic', ...)`` instead.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 3, 5, 5), np.float32)
    >>> W = np.ones((2, 3, 3, 3), np.float32)
    >>> F.convolution_2d(x, W, pad=1).shape
    (1, 2, 5, 5)
    """
    cudnn_fast = kwargs.get('cudnn_fast', False)
    dilate, groups = _conv.parse_conv_kwargs('convolution_2d', kwargs)
    func = Convolution2DFunction(stride, pad, cover_all, dilate=dilate,
                                 groups=groups, cudnn_fast=cudnn_fast)
    args = (x, W) if b is None else (x, W, b)
    return func.apply(args)[0]
