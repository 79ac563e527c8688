"""N-dimensional convolution: ``F.convolution_nd`` (``_1d``, ``_3d``).

The gradient is differentiable again: ``gx`` is a deconvolution of ``gy``
and ``gW`` a :class:`ConvolutionNDGradW` node, whose own backward is a
deconvolution and a convolution.
"""

from chainer import configuration
from chainer.function_node import FunctionNode
from chainer.functions.connection import _conv
from chainer.functions._errors import names_bad_arguments


def _family(two_d):
    """(convolution, deconvolution, grad-W) classes of one family, so that
    2-D graphs keep Chainer's 2-D class names."""
    if two_d:
        from chainer.functions.connection import convolution_2d as c2
        from chainer.functions.connection import deconvolution_2d as d2
        return c2.Convolution2DFunction, d2.Deconvolution2DFunction, \
            c2.Convolution2DGradW
    from chainer.functions.connection import deconvolution_nd as dn
    return ConvolutionND, dn.DeconvolutionND, ConvolutionNDGradW


class _ConvParams:
    """Geometry shared by the convolution-family nodes."""

    _two_d = False
    _negative_pad = False  # a deconvolution's crops less than nothing

    def _set(self, ndim, stride, pad, cover_all, dilate, groups):
        self.ndim = ndim
        self.stride, self.pad, self.dilate, self.groups = _conv.normalize(
            ndim, stride, pad, dilate, groups)
        if not self._negative_pad and any(p < 0 for p in self.pad):
            raise ValueError('pad must be non-negative integers, got '
                             '{}'.format(self.pad))
        self.cover_all = bool(cover_all)

    def _new(self, cls, cover_all=None, outsize=None):
        node = cls.__new__(cls)
        node.ndim = self.ndim
        node.stride, node.pad = self.stride, self.pad
        node.dilate, node.groups = self.dilate, self.groups
        node.cover_all = self.cover_all if cover_all is None else cover_all
        node.outsize = outsize
        return node

    def conv(self, x, W, cover_all):
        return self._new(_family(self._two_d)[0], cover_all).apply(
            (x, W))[0]

    def deconv(self, x, W, outsize):
        return self._new(_family(self._two_d)[1], False, outsize).apply(
            (x, W))[0]

    def grad_w(self, x, gy, ksize, cover_all, held=None):
        node = self._new(_family(self._two_d)[2], cover_all)
        node.ksize = tuple(ksize)
        node._held = held
        return node.apply((x, gy))[0]


class ConvolutionND(_ConvParams, FunctionNode):
    """N-dimensional convolution of ``(x, W[, b])``."""

    outsize = None
    _held = None  # what a Winograd forward keeps for the filter gradient

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1,
                 groups=1):
        self._set(ndim, stride, pad, cover_all, dilate, groups)

    def forward(self, inputs):
        x, W, b = _conv.check_conv_inputs(self, inputs, self.ndim,
                                          self.groups)
        _conv.check_outsize_positive(self, x.shape[2:], W.shape[2:],
                                     self.stride, self.pad, self.dilate,
                                     self.cover_all)
        self.retain_inputs((0, 1))
        if not configuration.config.enable_backprop:
            return _conv.conv_forward(x, W, b, self.stride, self.pad,
                                      self.dilate, self.groups,
                                      self.cover_all),
        y, self._held = _conv.conv_forward(
            x, W, b, self.stride, self.pad, self.dilate, self.groups,
            self.cover_all, keep=True)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        held, self._held = self._held, None
        ret = []
        if 0 in indexes:
            ret.append(self.deconv(gy, W, x.shape[2:]))
        if 1 in indexes:
            ret.append(self.grad_w(x, gy, W.shape[2:], self.cover_all,
                                   held))
        elif held is not None:
            held.release()
        if 2 in indexes:
            ret.append(_conv.bias_grad(gy))
        return tuple(ret)


class ConvolutionNDGradW(_ConvParams, FunctionNode):
    """The filter gradient of a convolution, from ``(x, gy)``."""

    outsize = None

    def __init__(self, convnd):
        self.ndim = convnd.ndim
        self.stride, self.pad = convnd.stride, convnd.pad
        self.dilate, self.groups = convnd.dilate, convnd.groups
        self.cover_all = convnd.cover_all
        W = convnd.inputs[1]
        self.ksize = tuple(W.shape[2:])

    _held = None  # (from the convolution's forward: _ConvParams.grad_w)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        held, self._held = self._held, None
        return _conv.conv_grad_w(x, gy, self.ksize, self.stride, self.pad,
                                 self.dilate, self.groups, held).astype(
                                     x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self.deconv(gy, ggW, x.shape[2:]))
        if 1 in indexes:
            ret.append(self.conv(x, ggW, self.cover_all))
        return tuple(ret)


@names_bad_arguments
def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """N-dimensional convolution function.

    Convolves ``x`` of shape ``(n, c_I, d_1, ..., d_N)`` with filters ``W``
    of shape ``(c_O, c_I // groups, k_1, ..., k_N)``; the output has shape
    ``(n, c_O, l_1, ..., l_N)`` with
    ``l_i = (d_i + 2 p_i - (k_i - 1) * dilate_i - 1) // s_i + 1``
    (rounded up instead with ``cover_all``).

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, d_1, ..., d_N)``.
        W (~chainer.Variable or array): Filters ``(c_O, c_I / groups, k_1,
            ..., k_N)``.
        b (~chainer.Variable or array): Bias ``(c_O,)`` (optional).
        stride (int or tuple of ints): Strides of the filter application.
        pad (int or tuple of ints): Zero padding of each spatial axis.
        cover_all (bool): Let the windows cover every input pixel (the
            output may get one more element per axis).
        dilate (int or tuple of ints): Dilation of the filters.
        groups (int): Number of groups of channels convolved separately.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, l_1, ..., l_N)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 2, 5, 5, 5), np.float32)
    >>> W = np.ones((3, 2, 2, 2, 2), np.float32)
    >>> F.convolution_nd(x, W).shape
    (1, 3, 4, 4, 4)
    """
    ndim = len(x.shape[2:])
    func = ConvolutionND(ndim, stride, pad, cover_all, dilate=dilate,
                         groups=groups)
    args = (x, W) if b is None else (x, W, b)
    return func.apply(args)[0]


def _check_ndim(fname, x, n):
    if len(x.shape) != n + 2:
        raise ValueError(
            '{}: the input must have {} dimensions (n, c, {} spatial), got '
            'shape {}'.format(fname, n + 2, n, x.shape))


@names_bad_arguments
def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """1-dimensional convolution function (:func:`convolution_nd` on
    ``(n, c, d)`` inputs)."""
    _check_ndim('convolution_1d', x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


@names_bad_arguments
def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """3-dimensional convolution function (:func:`convolution_nd` on
    ``(n, c, d_1, d_2, d_3)`` inputs)."""
    _check_ndim('convolution_3d', x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
