"""Array-level N-d convolution shared by the convolution family.

Layouts follow Chainer: ``x`` is ``(n, c, *dims)``, a convolution filter
``W`` is ``(out_c, c // groups, *ksize)`` and a deconvolution filter is
``(in_c, out_c // groups, *ksize)``.  Each op is an im2col view of the
padded input and one (batched) matmul; groups become a batch axis of the
matmul, so grouped and plain convolutions share one path.
"""


import numpy

import chainer
from chainer import backend
from chainer.functions._errors import invalid_type
from chainer.utils import get_conv_outsize
from chainer.utils import conv_nd
from chainer.utils.conv_nd import as_tuple, col2im_add, im2col_view
from chainer.utils.array import size_of_shape


# The batch axis goes last inside these functions: the windows of a
# (c, *dims, n) array copy in runs of n (or out_w * n) contiguous elements,
# where (n, c, *dims) gives runs of out_w, and the contraction over
# c * prod(ksize) becomes one GEMM per group with n * prod(outs) columns.

def _bmm(xp, a, b):
    """``matmul`` of two stacks of matrices.  NumPy's stacked matmul does
    not reach BLAS as well as the 2-D one (about 3x slower here), so the
    stack is walked with 2-D products."""
    if xp is not numpy:
        return xp.matmul(a, b)
    if a.shape[0] == 1:
        return numpy.matmul(a[0], b[0])[None]
    return numpy.stack([numpy.matmul(ai, bi) for ai, bi in zip(a, b)])


def _batch_last(xp, x, axis=0):
    return xp.moveaxis(x, axis, -1)


def _batch_first(xp, y):
    return xp.ascontiguousarray(xp.moveaxis(y, -1, 0))


def _columns(xp, x, ksize, stride, pad, dilate, cover_all, outs):
    """The windows of ``x`` as a ``(c, *ksize, *outs, n)`` view."""
    xT = _batch_last(xp, x)
    if not any(pad):
        xT = xp.ascontiguousarray(xT)
    return im2col_view(xT, ksize, stride, pad, 0, cover_all, dilate, outs,
                       first=1)


def _columns_nk(xp, x, ksize, stride, pad, dilate, cover_all, outs, groups):
    """The windows of ``x`` as a ``(groups, n * prod(outs), c_g *
    prod(ksize))`` matrix stack, rows in ``(n, *outs)`` order (Chainer's
    im2col layout, so that the sums over rows run in its order)."""
    nd = x.ndim - 2
    col = im2col_view(x, ksize, stride, pad, 0, cover_all, dilate, outs)
    n, c = x.shape[:2]
    outs = col.shape[2 + nd:]
    col = col.reshape((n, groups, c // groups) + col.shape[2:])
    axes = (1, 0) + tuple(range(3 + nd, 3 + 2 * nd)) + \
        tuple(range(2, 3 + nd))
    col = xp.ascontiguousarray(col.transpose(axes))
    return col.reshape(groups, n * size_of_shape(outs), -1), outs


def _copy_rows(xp, view):
    """``ascontiguousarray(view)``.  When the last axis of ``view`` is
    contiguous (the rows of the windows), NumPy's copy would move a few
    elements at a time: the C loops move whole rows, and without them each
    row is seen as one opaque (void) item, moved as one block, with the
    same bytes as a result."""
    if xp is numpy and conv_nd._loops is not None:
        return conv_nd.copy_array(view)
    if xp is numpy and view.ndim > 1 and view.shape[-1] > 1 and \
            view.strides[-1] == view.itemsize and view.size:
        nbytes = view.shape[-1] * view.itemsize
        rows = view.view(numpy.dtype((numpy.void, nbytes)))[..., 0]
        return numpy.ascontiguousarray(rows).view(view.dtype).reshape(
            view.shape)
    return xp.ascontiguousarray(view)


# The largest m * n * k OpenBLAS hands to its layout-specific small-matrix
# kernels (measured: larger products give the same bits in any layout).
_SMALL_GEMM = 1000000


def _window_rows(xp, x, ksize, stride, pad, dilate, cover_all, outs,
                 n_other):
    """Chainer's im2col matrix ``(n * prod(outs), c * prod(ksize))``, with
    the values BLAS gives Chainer's ``numpy.tensordot`` (its float32
    rounding depends on the call).  ``n_other`` is the other free size of
    the product.  A large GEMM gives the same bits whatever the layout of
    the matrix, so it is a transposed view of one fast copy in
    ``(c, *ksize, n, *outs)`` order.  A small product (OpenBLAS sums those
    of up to 100**3 multiply-adds in kernels of their own, one per layout,
    on AVX-512 machines) or one that degenerates to a matrix-vector one (a
    size of 1) takes tensordot's own C-contiguous layout.
    """
    nd = x.ndim - 2
    n, c = x.shape[:2]
    view = im2col_view(x, ksize, stride, pad, 0, cover_all, dilate, outs)
    outs = view.shape[2 + nd:]
    m = n * size_of_shape(outs)
    k = c * size_of_shape(ksize)
    if min(m, k, n_other) > 1 and m * k * n_other > _SMALL_GEMM:
        axes = tuple(range(1, 2 + nd)) + (0,) + tuple(range(2 + nd,
                                                             2 + 2 * nd))
        col = _copy_rows(xp, view.transpose(axes))
        return col.reshape(k, m).T, outs
    if n == 1:
        view = xp.ascontiguousarray(view)
    axes = (0,) + tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(1, 2 + nd))
    return view.transpose(axes).reshape(m, k), outs


def _add_bias_rows(xp, y, b):
    """``y += b`` for a C-contiguous matrix ``y`` with one column per
    entry of ``b``.  NumPy loops over rows as long as ``b``; seen as
    ``r`` rows at a time against ``b`` repeated ``r`` times, each element
    gets the same single addition in loops ``r`` times longer."""
    m, c = y.shape
    r = 1
    while r * c < 1024 and m % (2 * r) == 0:
        r *= 2
    if xp is numpy and r > 1 and y.flags.c_contiguous:
        rows = y.reshape(m // r, r * c)
        rows += numpy.tile(b, r)
    else:
        y += b


def conv_forward(x, W, b, stride, pad, dilate, groups, cover_all,
                 outs=None):
    """``y[n, o, p] = sum_k W[o, k] col[k, p, n] (+ b[o])``."""
    xp = backend.get_array_module(x)
    nd = x.ndim - 2
    n = x.shape[0]
    out_c = W.shape[0]
    if out_c == 0:  # no filters: an empty output of the right shape
        if outs is None:
            outs = tuple(get_conv_outsize(d, k, s, p, cover_all, dl)
                         for d, k, s, p, dl in zip(x.shape[2:], W.shape[2:],
                                                   stride, pad, dilate))
        return xp.zeros((n, 0) + tuple(outs), x.dtype)
    if groups == 1:
        # The product Chainer's tensordot makes, with ``dot`` as it does
        # (the float32 rounding of BLAS depends on the call, the operands'
        # order and their layout): the windows as an
        # (n * prod(outs), c * prod(ksize)) matrix, copied once, times W^T.
        col, outs = _window_rows(xp, x, W.shape[2:], stride, pad, dilate,
                                 cover_all, outs, out_c)
        Wt = W.transpose(tuple(range(1, nd + 2)) + (0,)).reshape(-1, out_c)
        y = xp.dot(col, Wt)
        if b is not None:
            _add_bias_rows(xp, y, b)
        return xp.moveaxis(y.reshape((n,) + outs + (out_c,)), -1, 1)
    col = _columns(xp, x, W.shape[2:], stride, pad, dilate, cover_all, outs)
    outs = col.shape[1 + nd:1 + 2 * nd]
    col = col.reshape(groups, -1, size_of_shape(outs) * n)  # the one copy
    y = _bmm(xp, W.reshape(groups, out_c // groups, -1), col)
    y = _batch_first(xp, y.reshape((out_c,) + outs + (n,)))
    if b is not None:
        y += b.reshape((1, out_c) + (1,) * nd)
    return y


def conv_grad_w(x, gy, ksize, stride, pad, dilate, groups):
    """The filter gradient ``gW[o, k] = sum_{n, p} gy[n, o, p] col[n, p, k]``
    (summed in Chainer's ``(n, p)`` order)."""
    xp = backend.get_array_module(x)
    n, out_c = gy.shape[:2]
    c = x.shape[1]
    if out_c == 0:
        return xp.zeros((0, c // groups) + tuple(ksize), x.dtype)
    if groups == 1:
        # gy as (out_c, n * prod(outs)) times the window rows, summed in
        # Chainer's (n, *outs) order.
        col, _ = _window_rows(xp, x, ksize, stride, pad, dilate, False,
                              gy.shape[2:], out_c)
        gy2 = xp.moveaxis(gy, 1, 0).reshape(out_c, -1)
        return xp.dot(gy2, col).reshape((out_c, c) + tuple(ksize))
    col, _ = _columns_nk(xp, x, ksize, stride, pad, dilate, False,
                         gy.shape[2:], groups)
    gy = gy.reshape((n, groups, out_c // groups, -1))
    gy = xp.ascontiguousarray(gy.transpose(1, 2, 0, 3))
    gW = _bmm(xp, gy.reshape(groups, out_c // groups, -1), col)
    return gW.reshape((out_c, c // groups) + tuple(ksize))


def deconv_forward(x, W, b, stride, pad, outsize, dilate, groups):
    """The adjoint of :func:`conv_forward` in ``x`` (a transposed conv)."""
    xp = backend.get_array_module(x)
    nd = x.ndim - 2
    n, in_c = x.shape[:2]
    ksize = W.shape[2:]
    out_c = W.shape[1] * groups
    if in_c == 0:  # nothing to scatter: zeros (plus the bias)
        y = xp.zeros((n, out_c) + tuple(outsize), x.dtype)
        if b is not None:
            y += b.reshape((1, out_c) + (1,) * nd)
        return y
    if groups == 1:
        # Chainer's product: tensordot(W, x, (0, 1)), columns in its
        # (n, *dims) order (a GEMM's bits depend on where a row or column
        # lies in the product, not only on the operand layouts).
        col = xp.tensordot(W, x, (0, 1)).reshape(
            (out_c,) + tuple(ksize) + (n,) + x.shape[2:])
        if conv_nd._native_add(xp, col):
            # The C additions take the windows as they lie.
            col = xp.moveaxis(col, 1 + nd, 0)
            y = xp.ascontiguousarray(col2im_add(col, stride, pad, outsize,
                                                dilate))
        else:
            # NumPy's window sums run on a batch-last image, over long
            # contiguous stretches (read through a transposed view).
            y = _batch_first(xp, col2im_add(_batch_last(xp, col, 1 + nd),
                                            stride, pad, outsize, dilate,
                                            first=1))
        if b is not None:
            y += b.reshape((1, out_c) + (1,) * nd)
        return y
    xT = xp.ascontiguousarray(_batch_last(xp, x))
    xT = xT.reshape(groups, in_c // groups, -1)
    Wg = W.reshape(groups, in_c // groups, -1).swapaxes(1, 2)
    col = _bmm(xp, Wg, xT).reshape(
        (out_c,) + tuple(ksize) + x.shape[2:] + (n,))
    y = _batch_first(xp, col2im_add(col, stride, pad, outsize, dilate,
                                    first=1))
    if b is not None:
        y += b.reshape((1, out_c) + (1,) * nd)
    return y


def deconv_outsize(dims, ksize, stride, pad, dilate):
    from chainer.utils import get_deconv_outsize
    return tuple(get_deconv_outsize(d, k, s, p, d=dl) for d, k, s, p, dl
                 in zip(dims, ksize, stride, pad, dilate))


def deconv_cover_all(func, dims, outsize, ksize, stride, pad, dilate):
    """Whether a convolution of ``outsize`` gives back ``dims`` plainly
    (False) or with ``cover_all`` (True); an error when neither does."""
    cover_all = False
    for d, o, k, s, p, dl in zip(dims, outsize, ksize, stride, pad, dilate):
        lo = get_conv_outsize(o, k, s, p, False, dl)
        hi = get_conv_outsize(o, k, s, p, True, dl)
        if not lo <= d <= hi:
            raise invalid_type(
                func, 'outsize consistent with the input: conv_outsize('
                'outsize) <= x.shape[2:] <= conv_outsize(outsize, cover_all)',
                'outsize {} against input size {} (kernel {}, stride {}, '
                'pad {})'.format(tuple(outsize), tuple(dims), tuple(ksize),
                                 tuple(stride), tuple(pad)))
        if d != lo:
            cover_all = True
    return cover_all


def check_conv_inputs(func, inputs, nd, groups, deconv=False):
    """Chainer's type checks of a (de)convolution; returns the inputs with
    ``W`` and ``b`` cast to ``x``'s dtype."""
    if len(inputs) not in (2, 3):
        raise invalid_type(func, 'in_types.size in [2, 3]',
                           '{} not in [2, 3]'.format(len(inputs)))
    x, W = inputs[:2]
    b = inputs[2] if len(inputs) == 3 else None
    if x.dtype.kind != 'f':
        raise invalid_type(func, 'in_types[0].dtype.kind == f',
                           '{} != f'.format(x.dtype.kind))
    if W.dtype.kind != 'f':
        raise invalid_type(func, 'in_types[1].dtype.kind == f',
                           '{} != f'.format(W.dtype.kind))
    if x.ndim != nd + 2:
        raise invalid_type(func, 'in_types[0].ndim == {}'.format(nd + 2),
                           '{} != {}'.format(x.ndim, nd + 2))
    if W.ndim != nd + 2:
        raise invalid_type(func, 'in_types[1].ndim == {}'.format(nd + 2),
                           '{} != {}'.format(W.ndim, nd + 2))
    if deconv:
        if x.shape[1] != W.shape[0]:
            raise invalid_type(func, 'in_types[0].shape[1] == in_types[1].shape[0]',
                               '{} != {}'.format(x.shape[1], W.shape[0]))
        out_c = W.shape[1] * groups
    else:
        if x.shape[1] != W.shape[1] * groups:
            raise invalid_type(
                func, 'in_types[0].shape[1] == in_types[1].shape[1] * {}'.format(
                    groups),
                '{} != {}'.format(x.shape[1], W.shape[1] * groups))
        out_c = W.shape[0]
    if groups > 1 and (out_c % groups or x.shape[1] % groups):
        raise ValueError(
            '{}: the channels (in {}, out {}) must be divisible by groups '
            '({})'.format(func.label, x.shape[1], out_c, groups))
    if b is not None:
        if b.dtype.kind != 'f':
            raise invalid_type(func, 'in_types[2].dtype.kind == f',
                               '{} != f'.format(b.dtype.kind))
        if b.dtype != x.dtype and chainer.config.type_check:
            # (W may differ; it is cast, as Chainer)
            raise invalid_type(func, 'in_types[2].dtype == in_types[0].dtype',
                               '{} != {}'.format(b.dtype, x.dtype))
        # Chainer's type-check wording (x, W, b are in_types[0..2]).
        if b.ndim != 1:
            raise invalid_type(func, 'in_types[2].ndim == 1',
                               '{} != 1'.format(b.ndim))
        if b.shape[0] != out_c:
            expect = ('in_types[2].shape[0] == in_types[1].shape[1] * {}'
                      .format(groups) if deconv else
                      'in_types[2].shape[0] == in_types[1].shape[0]')
            raise invalid_type(func, expect,
                               '{} != {}'.format(b.shape[0], out_c))
    if W.dtype != x.dtype:
        W = W.astype(x.dtype)
    return x, W, b


def check_outsize_positive(func, x_dims, ksize, stride, pad, dilate,
                           cover_all):
    outs = tuple(get_conv_outsize(d, k, s, p, cover_all, dl) for
                 d, k, s, p, dl in zip(x_dims, ksize, stride, pad, dilate))
    if any(o <= 0 for o in outs):
        raise invalid_type(
            func, 'a positive output size', 'output size {} (input {}, '
            'kernel {}, stride {}, pad {}, dilate {})'.format(
                outs, tuple(x_dims), tuple(ksize), tuple(stride),
                tuple(pad), tuple(dilate)))
    return outs


def parse_conv_kwargs(fname, kwargs, allow_cudnn_fast=True):
    """``dilate``, ``groups`` (and the ignored ``cudnn_fast``) from
    ``**kwargs``; the removed ``deterministic`` is rejected as Chainer does."""
    if 'deterministic' in kwargs:
        raise ValueError(
            'deterministic argument is not supported anymore. Use '
            "chainer.using_config('cudnn_deterministic', value) context "
            'where value is either `True` or `False`.')
    dilate = kwargs.pop('dilate', 1)
    groups = kwargs.pop('groups', 1)
    if allow_cudnn_fast:
        kwargs.pop('cudnn_fast', False)
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            fname, ', '.join("'{}'".format(k) for k in kwargs)))
    return dilate, groups


def normalize(nd, stride, pad, dilate, groups):
    groups = int(groups)
    if groups < 1:
        raise ValueError('groups must be a positive integer, got {}'.format(
            groups))
    stride, pad, dilate = (as_tuple(stride, nd), as_tuple(pad, nd),
                           as_tuple(dilate, nd))
    if any(d < 1 for d in dilate):
        raise ValueError('dilate must be positive integers, got {}'.format(
            dilate))
    if any(s < 1 for s in stride):
        raise ValueError('stride must be positive integers, got {}'.format(
            stride))
    return stride, pad, dilate, groups


def bias_grad(gy):
    from chainer.functions.math.sum import sum as _sum
    return _sum(gy, axis=(0,) + tuple(range(2, gy.ndim)))

