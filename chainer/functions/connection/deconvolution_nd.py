"""N-dimensional deconvolution (transposed convolution):
``F.deconvolution_nd`` (``_1d``, ``_3d``)."""

from chainer import configuration
from chainer import utils
from chainer.function_node import _RELEASED, FunctionNode
from chainer.functions.connection import _conv
from chainer.functions.connection.convolution_nd import _check_ndim
from chainer.functions.connection.convolution_nd import _ConvParams
from chainer.functions._errors import names_bad_arguments, output_size_error
from chainer.functions.math.sum import _np_sum


class DeconvolutionND(_ConvParams, FunctionNode):
    """N-dimensional deconvolution of ``(x, W[, b])``."""

    _negative_pad = True

    outs = None  # the output size, as Chainer names it (set by forward)
    _held = None  # what a Winograd forward keeps for the backward

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1,
                 groups=1):
        self._set(ndim, stride, pad, False, dilate, groups)
        if outsize is not None:
            outsize = tuple(outsize)
        self.outsize = self.outs = outsize

    def forward(self, inputs):
        x, W, b = _conv.check_conv_inputs(self, inputs, self.ndim,
                                          self.groups, deconv=True)
        ksize = W.shape[2:]
        if self.outsize is None:
            outsize = _conv.deconv_outsize(x.shape[2:], ksize, self.stride,
                                           self.pad, self.dilate)
            if any(o <= 0 for o in outsize):
                raise output_size_error(outsize, self._two_d, deconv=True)
            self.cover_all = False
        else:
            outsize = self.outsize
            if len(outsize) != self.ndim:
                raise ValueError(
                    '{}: outsize must have {} elements, got {}'.format(
                        self.label, self.ndim, outsize))
            # The convolution that backward runs must give x's size back.
            self.cover_all = _conv.deconv_cover_all(
                self, x.shape[2:], outsize, ksize, self.stride, self.pad,
                self.dilate)
        self.outs = tuple(outsize)
        self.retain_inputs((0, 1))
        if not configuration.config.enable_backprop:
            return _conv.deconv_forward(x, W, b, self.stride, self.pad,
                                        outsize, self.dilate, self.groups),
        # (what the forward keeps for the filter gradient: _backward_arrays)
        y, self._held = _conv.deconv_forward(
            x, W, b, self.stride, self.pad, outsize, self.dilate,
            self.groups, keep=True)
        return y,

    def _backward_arrays(self, indexes, gys):
        # No graph to record: the input and filter gradients read the same
        # windows of gy, copied once for both (_conv.conv_and_grad_w)
        data = self._retained_in_data
        held, self._held = self._held, None
        if data is _RELEASED or self.groups != 1 or 0 not in indexes or \
                1 not in indexes:
            if held is not None:
                held.release()
            return None
        x, W = data
        gy = gys[0]
        r = _conv.conv_and_grad_w(gy, W, x, self.stride, self.pad,
                                  self.dilate, self.cover_all, x.shape[2:],
                                  held)
        if r is None:
            return None
        if 2 in indexes:
            # (in b's dtype, which an N-d deconvolution lets differ)
            r += utils.force_array(_np_sum(gy, (0,) + tuple(
                range(2, gy.ndim)))).astype(self.inputs[2].dtype,
                                            copy=False),
        return r

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self.conv(gy, W, self.cover_all))
        if 1 in indexes:
            ret.append(self.grad_w(gy, x, W.shape[2:], self.cover_all))
        if 2 in indexes:
            ret.append(_conv.bias_grad(gy))
        return tuple(ret)


@names_bad_arguments
def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """N-dimensional deconvolution function.

    The transpose of :func:`~chainer.functions.convolution_nd` with respect
    to its input: ``x`` of shape ``(n, c_I, d_1, ..., d_N)`` and ``W`` of
    shape ``(c_I, c_O // groups, k_1, ..., k_N)`` give an output of shape
    ``(n, c_O, l_1, ..., l_N)`` with
    ``l_i = s_i (d_i - 1) + (k_i - 1) * dilate_i + 1 - 2 p_i`` unless
    ``outsize`` says otherwise.

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, d_1, ..., d_N)``.
        W (~chainer.Variable or array): Filters ``(c_I, c_O / groups, k_1,
            ..., k_N)``.
        b (~chainer.Variable or array): Bias ``(c_O,)`` (optional).
        stride (int or tuple of ints): Strides of the filter application.
        pad (int or tuple of ints): Padding cropped from the output.
        outsize (None or tuple of ints): Output size (it must be one that
            a convolution would map back to the input size).
        dilate (int or tuple of ints): Dilation of the filters.
        groups (int): Number of groups of channels.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, l_1, ..., l_N)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 2, 3, 3, 3), np.float32)
    >>> W = np.ones((2, 4, 2, 2, 2), np.float32)
    >>> F.deconvolution_nd(x, W, stride=2).shape
    (1, 4, 6, 6, 6)
    """
    ndim = len(x.shape[2:])
    func = DeconvolutionND(ndim, stride, pad, outsize, dilate=dilate,
                           groups=groups)
    args = (x, W) if b is None else (x, W, b)
    return func.apply(args)[0]


@names_bad_arguments
def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """1-dimensional deconvolution function (:func:`deconvolution_nd` on
    ``(n, c, d)`` inputs)."""
    _check_ndim('deconvolution_1d', x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


@names_bad_arguments
def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """3-dimensional deconvolution function (:func:`deconvolution_nd` on
    ``(n, c, d_1, d_2, d_3)`` inputs)."""
    _check_ndim('deconvolution_3d', x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
