"""Two-dimensional deconvolution (transposed convolution):
``F.deconvolution_2d``."""

from chainer.functions.connection import _conv
from chainer.functions.connection.convolution_2d import _Attrs2D
from chainer.functions.connection.deconvolution_nd import DeconvolutionND
from chainer.functions._errors import names_bad_arguments


class Deconvolution2DFunction(_Attrs2D, DeconvolutionND):
    """Two-dimensional deconvolution of ``(x, W[, b])``."""

    outh = property(lambda self: None if self.outs is None else self.outs[0])
    outw = property(lambda self: None if self.outs is None else self.outs[1])

    def __init__(self, stride=1, pad=0, outsize=None, **kwargs):
        dilate, groups = _conv.parse_conv_kwargs(
            'Deconvolution2DFunction', kwargs, allow_cudnn_fast=False)
        self._set(2, stride, pad, False, dilate, groups)
        if outsize is not None:
            outsize = tuple(outsize)
        self.outsize = self.outs = outsize


@names_bad_arguments
def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs):
    """Two dimensional deconvolution function.

    The transpose of :func:`~chainer.functions.convolution_2d` with respect
    to its input: ``x`` of shape ``(n, c_I, h_I, w_I)`` and ``W`` of shape
    ``(c_I, c_O // groups, h_K, w_K)`` give ``(n, c_O, h_O, w_O)`` with
    ``h_O = s_Y (h_I - 1) + (h_K - 1) * d_Y + 1 - 2 h_P`` unless
    ``outsize`` says otherwise (and the same for the width).

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, h_I, w_I)``.
        W (~chainer.Variable or array): Filters ``(c_I, c_O / groups, h_K,
            w_K)``.
        b (~chainer.Variable or array): Bias ``(c_O,)`` (optional).
        stride (int or pair of ints): Stride ``(s_Y, s_X)``.
        pad (int or pair of ints): Padding ``(h_P, w_P)`` cropped from the
            output.
        outsize (None or pair of ints): Output size ``(h_O, w_O)``; it must
            be one that a convolution maps back to the input size.
        dilate (int or pair of ints): Dilation (keyword).
        groups (int): Number of channel groups (keyword).

    Returns:
        ~chainer.Variable: Output ``(n, c_O, h_O, w_O)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 3, 4, 4), np.float32)
    >>> W = np.ones((3, 2, 3, 3), np.float32)
    >>> F.deconvolution_2d(x, W, stride=2).shape
    (1, 2, 9, 9)
    """
    dilate, groups = _conv.parse_conv_kwargs('deconvolution_2d', kwargs,
                                             allow_cudnn_fast=False)
    func = Deconvolution2DFunction(stride, pad, outsize, dilate=dilate,
                                   groups=groups)
    args = (x, W) if b is None else (x, W, b)
    return func.apply(args)[0]
