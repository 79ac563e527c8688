"""Array-level N-d convolution shared by the convolution family.

Layouts follow Chainer: ``x`` is ``(n, c, *dims)``, a convolution filter
``W`` is ``(out_c, c // groups, *ksize)`` and a deconvolution filter is
``(in_c, out_c // groups, *ksize)``.

Without groups, each op walks the batch in chunks of samples: the windows
of a chunk are copied into a buffer of up to 32 MB (the C loops pad in
place, in 2-d), kept from call to call, and one GEMM per chunk reads it.
The whole column array of a large batch (``prod(ksize)`` times the input)
never exists.  Groups become a batch
axis of a matmul over the whole batch.
"""


import threading

import numpy

from chainer import backend
from chainer.functions._errors import (check_same_dtype, invalid_type, output_size_error)
from chainer.functions.connection import _winograd
from chainer.utils import _blas
from chainer.utils import get_conv_outsize
from chainer.utils import conv_nd
from chainer.utils.conv_nd import as_tuple, col2im_add, im2col_view
from chainer.utils.array import size_of_shape


# The window buffer of a chunk is kept under this many bytes, unless one
# sample alone is larger.  Measured on 2 shared cores (32x64x32x32, 3x3):
# on one core, chunks of 2 MB (a sample per GEMM), 8, 32 or 64 MB cost the
# same CPU time within 5%; but each GEMM waits for BLAS's other thread,
# and on a loaded machine those waits dominate: a ResNet block step took
# 4.2 s with 2 MB chunks, 1.5 s with 8 MB and 0.6 s with 32 or 64 MB.
_CHUNK_BYTES = 1 << 25


def _frontend():
    # imported on the GPU path only: ``import chainer`` never loads it
    from chainer.backends import _cudnn_frontend
    return _cudnn_frontend


def _chunk(xp, n, sample_bytes, limit=None):
    """Samples per GEMM: as many as fit the buffer of ``limit`` bytes
    (:data:`_CHUNK_BYTES` by default; all of them on a GPU), in chunks of
    even sizes."""
    if xp is not numpy or n <= 1:
        return max(n, 1)
    limit = _CHUNK_BYTES if limit is None else limit
    step = max(1, min(n, limit // max(sample_bytes, 1)))
    chunks = -(-n // step)
    return -(-n // chunks)


def _native_2d(x, pad, add=False):
    """Whether the C loops take the 2-d windows of ``x`` (or their sums)
    with the padding in place."""
    return (conv_nd._loops is not None and type(x) is numpy.ndarray and
            x.ndim == 4 and min(pad) >= 0 and x.dtype.isnative and
            (x.dtype.char in 'fd' if add else
             x.dtype.kind == 'f' and x.dtype.itemsize in (2, 4, 8)))


def _copyto(dst, src):
    """``dst[...] = src``.  NumPy's copy pays its iterator every few
    elements when the rows of a window view are short: the C loops move
    each row as one run, and without them each row is seen as one opaque
    (void) item, moved as one block (the same bytes)."""
    if type(dst) is not numpy.ndarray or type(src) is not numpy.ndarray or \
            dst.dtype != src.dtype or dst.dtype.hasobject:
        backend.get_array_module(dst).copyto(dst, src)
    elif conv_nd._loops is not None:
        conv_nd._loops.copyto(dst, src)
    elif dst.ndim > 1 and dst.shape[-1] > 1 and dst.size and \
            dst.strides[-1] == src.strides[-1] == dst.itemsize:
        row = numpy.dtype((numpy.void, dst.shape[-1] * dst.itemsize))
        numpy.copyto(dst.view(row)[..., 0], src.view(row)[..., 0])
    else:
        numpy.copyto(dst, src)


_BUFFERS = []  # window buffers given back, for the next call to take
_BUFFERS_LOCK = threading.Lock()
# Buffers kept at most: a Winograd forward holds its buffer until its
# filter gradient (_winograd._Held), while the input gradients of the
# layers after it take theirs, so a ResNet block's two convolutions use
# three at once.
_BUFFERS_KEPT = 3


def _buffer(xp, size, dtype):
    """An empty 1-d array of ``size`` items; on NumPy, one given back by an
    earlier call where one is large enough, the smallest such (a new large
    array costs its page faults again on every call: 15% of a ResNet
    block's time)."""
    if xp is numpy:
        with _BUFFERS_LOCK:
            for i in range(len(_BUFFERS) - 1, -1, -1):
                b = _BUFFERS[i]
                if b.dtype == dtype and b.size >= size:
                    return _BUFFERS.pop(i)[:size]
    return xp.empty(size, dtype)


def _give_back(buf):
    """Keeps ``buf`` (from :func:`_buffer`) for a later call; the
    :data:`_BUFFERS_KEPT` largest buffers given back are kept."""
    if type(buf) is numpy.ndarray:
        base = buf if buf.base is None else buf.base
        with _BUFFERS_LOCK:
            if any(b is base for b in _BUFFERS):
                return
            _BUFFERS.append(base)
            _BUFFERS.sort(key=lambda b: -b.nbytes)
            del _BUFFERS[_BUFFERS_KEPT:]


class _Windows:
    """The windows of ``x``, chunk by chunk, as ``(c * prod(ksize),
    b * prod(outs))`` matrices (rows in ``(c, *ksize)`` order, columns in
    ``(sample, *outs)`` order), copied into one reused buffer."""

    def __init__(self, x, ksize, stride, pad, dilate, cover_all, outs=None):
        self.xp = backend.get_array_module(x)
        self.x, self.ksize, self.stride = x, tuple(ksize), stride
        self.pad, self.dilate, self.cover_all = pad, dilate, cover_all
        nd = len(ksize)
        if outs is None:
            outs = conv_nd.conv_outs(x.shape[2:], ksize, stride, pad,
                                     cover_all, dilate)
        self.outs = tuple(outs)
        self.rows = x.shape[1] * size_of_shape(ksize)
        self.cols = size_of_shape(self.outs)
        self.step = _chunk(self.xp, x.shape[0],
                           self.rows * self.cols * x.itemsize)
        self.buf = _buffer(self.xp, self.rows * self.cols * self.step,
                           x.dtype)
        # (b, c, *ksize, *outs) -> (c, *ksize, b, *outs)
        self.axes = tuple(range(1, 2 + nd)) + (0,) + tuple(
            range(2 + nd, 2 + 2 * nd))
        self.native = _native_2d(x, pad)

    def __iter__(self):
        n, c = self.x.shape[:2]
        geom = tuple(self.stride) + tuple(self.pad) + tuple(self.dilate)
        for s in range(0, n, self.step):
            e = min(n, s + self.step)
            if self.native:
                col = self.buf[:self.rows * self.cols * (e - s)].reshape(
                    (c,) + self.ksize + (e - s,) + self.outs)
                conv_nd._loops.im2col_2d(col, self.x[s:e], geom)
                yield s, e, col.reshape(self.rows, -1)
                continue
            view = im2col_view(self.x[s:e], self.ksize, self.stride,
                               self.pad, 0, self.cover_all, self.dilate,
                               self.outs)
            view = view.transpose(self.axes)
            col = self.buf[:view.size].reshape(view.shape)
            _copyto(col, view)
            yield s, e, col.reshape(self.rows, -1)
        _give_back(self.buf)


def _batch_inner(xp, a, s, e):
    """``a[s:e]`` (``(b, c, *dims)``) as a ``(c, b * prod(dims))`` matrix."""
    b, c = e - s, a.shape[1]
    if b == 1:
        return a[s].reshape(c, -1)
    m = a[s:e].reshape(b, c, -1)
    return xp.ascontiguousarray(m.transpose(1, 0, 2)).reshape(c, -1)


def _store(y, s, e, out):
    """``y[s:e] = out`` for ``out`` of shape ``(c, b * prod(dims))``."""
    b, c = e - s, y.shape[1]
    _copyto(y[s:e].reshape(b, c, -1),
            out.reshape(c, b, -1).transpose(1, 0, 2))


def _add_bias(y, b):
    if b is not None:
        y += b.reshape((1, -1) + (1,) * (y.ndim - 2))


def _whole_batch_y(xp, col, W2, n, outs):
    """The convolution of a whole batch in one GEMM: its rows (n, *outs)
    against the channels make a channels-last y, returned as an (n, c,
    *outs) view (no transposing copy; elementwise ops and pooling keep or
    shrink that layout before anything copies it)."""
    y = _blas.matmul(col.T, W2.T)
    return xp.moveaxis(y.reshape((n,) + outs + (len(W2),)), -1, 1)


def _conv_chunk(y, W2, s, e, col):
    """``y[s:e] = W2 col`` for one chunk of samples."""
    if e - s == 1:
        _blas.matmul(W2, col, out=y[s].reshape(len(W2), -1))
    else:
        _store(y, s, e, _blas.matmul(W2, col))


class _FilterGrad:
    """``gW[o, k] = sum_{n, p} gy[n, o, p] col[n, k, p]``, summed chunk by
    chunk as ``col gy^T`` (the orientation BLAS runs fastest here)."""

    __slots__ = ('xp', 'gy', 'gWT', 'tmp')

    def __init__(self, xp, gy):
        self.xp, self.gy = xp, gy
        self.gWT = self.tmp = None

    def add(self, s, e, col):
        xp = self.xp
        g = _batch_inner(xp, self.gy, s, e)
        if self.gWT is None:
            self.gWT = _blas.matmul(col, g.T)
        else:
            if self.tmp is None:
                self.tmp = xp.empty_like(self.gWT)
            _blas.matmul(col, g.T, out=self.tmp)
            self.gWT += self.tmp

    def result(self, c, ksize):
        return self.xp.ascontiguousarray(self.gWT.T).reshape(
            (self.gy.shape[1], c) + tuple(ksize))


def _conv_plain(x, W, b, stride, pad, dilate, cover_all, outs):
    """``y[n, o, p] = sum_k W[o, k] col[n, k, p] (+ b[o])``, one GEMM per
    chunk of samples."""
    if _winograd.s2_applies(x, W.shape[0], W.shape[2:], stride, pad,
                            dilate, outs, deconv=False):
        y = _winograd.s2_conv(x, W)
        _add_bias(y, b)
        return y
    if _winograd.applies(x, W.shape[0], W.shape[2:], stride, pad, dilate):
        return _winograd.conv(x, W, b, pad)
    xp = backend.get_array_module(x)
    n, out_c = x.shape[0], W.shape[0]
    windows = _Windows(x, W.shape[2:], stride, pad, dilate, cover_all, outs)
    W2 = W.reshape(out_c, -1)
    if 1 < n <= windows.step:
        _, _, col = next(iter(windows))
        y = _whole_batch_y(xp, col, W2, n, windows.outs)
        _give_back(windows.buf)
    else:
        y = xp.empty((n, out_c) + windows.outs, x.dtype)
        for s, e, col in windows:
            _conv_chunk(y, W2, s, e, col)
    _add_bias(y, b)
    return y


def _grad_w_plain(x, gy, ksize, stride, pad, dilate, held=None):
    """The filter gradient (:class:`_FilterGrad`), chunk by chunk;
    ``held``: what ``conv_forward(x, ..., keep=True)`` kept."""
    xp = backend.get_array_module(x)
    out_c = gy.shape[1]
    if gy.dtype != x.dtype:
        gy = gy.astype(x.dtype)
    if _winograd.grad_w_applies(x, out_c, ksize, stride, pad, dilate):
        return _winograd.grad_w(x, gy, pad, held=held)
    if held is not None:
        held.release()
    if x.shape[0] == 0:
        return xp.zeros((out_c, x.shape[1]) + tuple(ksize), x.dtype)
    if _winograd.s2_applies(x, out_c, ksize, stride, pad, dilate,
                            gy.shape[2:], deconv=False):
        return _winograd.s2_grad_w(gy, x)
    gW = _FilterGrad(xp, gy)
    for s, e, col in _Windows(x, ksize, stride, pad, dilate, False,
                              gy.shape[2:]):
        gW.add(s, e, col)
    return gW.result(x.shape[1], ksize)


def conv_and_grad_w(x, W, gy, stride, pad, dilate, cover_all, outs,
                    held=None):
    """``conv_forward(x, W)`` and ``conv_grad_w(x, gy)`` (no groups) from
    one pass over the windows of ``x``: the input and filter gradients of a
    deconvolution (``x`` its output's gradient, ``gy`` its input) read the
    same windows, which are then copied once, not twice.  The same
    products, in the same orientations, as the two apart.  None where
    either would take another path (a GPU, Winograd, mixed dtypes).
    ``held``: what ``deconv_forward(gy, ..., keep=True)`` kept (used by,
    or given back here)."""
    n, out_c = x.shape[0], W.shape[0]
    ksize = W.shape[2:]
    if n and gy.dtype == x.dtype == W.dtype and _winograd.s2_applies(
            x, out_c, ksize, stride, pad, dilate, outs, deconv=False):
        return _winograd.s2_conv(x, W, gy, held)
    if held is not None:
        held.release()
    if type(x) is not numpy.ndarray or not n or not out_c or \
            not x.dtype == W.dtype == gy.dtype or \
            _winograd.applies(x, out_c, ksize, stride, pad, dilate):
        return None
    xp = numpy
    windows = _Windows(x, ksize, stride, pad, dilate, cover_all, outs)
    W2 = W.reshape(out_c, -1)
    whole = 1 < n <= windows.step  # as _conv_plain
    if not whole:
        y = xp.empty((n, out_c) + windows.outs, x.dtype)
    gW = _FilterGrad(xp, gy)
    for s, e, col in windows:
        if whole:
            y = _whole_batch_y(xp, col, W2, n, windows.outs)
        else:
            _conv_chunk(y, W2, s, e, col)
        gW.add(s, e, col)
    return y, gW.result(x.shape[1], ksize)


def _deconv_plain(x, W, b, stride, pad, outsize, dilate):
    """The adjoint of :func:`_conv_plain` in ``x``: per chunk, the windows
    ``W^T x`` summed back onto the image."""
    if _winograd.s2_applies(x, W.shape[1], W.shape[2:], stride, pad,
                            dilate, outsize):
        return _winograd.s2_deconv(x, W, b)
    pad_c = tuple(2 - p for p in pad)  # of the equivalent convolution
    if _winograd.applies(x, W.shape[1], W.shape[2:], stride, pad_c,
                         dilate) and \
            tuple(outsize) == tuple(d - 2 + 2 * p for d, p in
                                    zip(x.shape[2:], pad_c)):
        return _winograd.deconv(x, W, b, pad)
    xp = backend.get_array_module(x)
    nd = x.ndim - 2
    n, in_c = x.shape[:2]
    ksize = W.shape[2:]
    out_c = W.shape[1]
    dims = x.shape[2:]
    rows, cols = out_c * size_of_shape(ksize), size_of_shape(dims)
    step = _chunk(xp, n, rows * cols * x.itemsize)
    WT = W.reshape(in_c, -1).T
    y = xp.empty((n, out_c) + tuple(outsize), x.dtype)
    native = _native_2d(y, pad, add=True)
    geom = tuple(stride) + tuple(pad) + tuple(dilate)
    buf = _buffer(xp, rows * step * cols, x.dtype)
    for s in range(0, n, step):
        e = min(n, s + step)
        col = buf[:rows * (e - s) * cols].reshape(rows, -1)
        _blas.matmul(WT, _batch_inner(xp, x, s, e), out=col)
        col = col.reshape((out_c,) + ksize + (e - s,) + dims)
        if native:  # the sums written straight into y
            conv_nd._loops.col2im_2d(y[s:e], col, geom)
        elif e - s >= 8:
            # NumPy's window sums with many samples last: long contiguous
            # stretches for its loops (with few, the rows are longer).
            img = col2im_add(xp.moveaxis(col, 1 + nd, -1), stride, pad,
                             outsize, dilate, first=1)
            _copyto(y[s:e], xp.moveaxis(img, -1, 0))
        else:
            _copyto(y[s:e], col2im_add(xp.moveaxis(col, 1 + nd, 0), stride,
                                       pad, outsize, dilate))
    _give_back(buf)
    _add_bias(y, b)
    return y


# Groups: the batch axis goes last, so the windows of a (c, *dims, n)
# array copy in runs of n, and each group is one GEMM over the batch.

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


def conv_forward(x, W, b, stride, pad, dilate, groups, cover_all,
                 outs=None, keep=False):
    """``y[n, o, p] = sum_k W[o, k] col[k, p, n] (+ b[o])``.  With
    ``keep``, ``(y, held)``: what a Winograd convolution keeps for
    :func:`conv_grad_w` (None on other paths)."""
    xp = backend.get_array_module(x)
    nd = x.ndim - 2
    n = x.shape[0]
    out_c = W.shape[0]
    if keep:
        if groups == 1 and _winograd.grad_w_applies(
                x, out_c, W.shape[2:], stride, pad, dilate):
            return _winograd.conv(x, W, b, pad, keep=True)
        return conv_forward(x, W, b, stride, pad, dilate, groups,
                            cover_all, outs), None
    if out_c == 0:  # no filters: an empty output of the right shape
        if outs is None:
            outs = conv_nd.conv_outs(x.shape[2:], W.shape[2:], stride, pad,
                                     cover_all, dilate)
        return xp.zeros((n, 0) + tuple(outs), x.dtype)
    if xp is not numpy and _frontend().should_use('conv_fprop', x.dtype):
        if outs is None:
            outs = conv_nd.conv_outs(x.shape[2:], W.shape[2:], stride, pad,
                                     cover_all, dilate)
        y = _frontend().convolution(x, W, b, stride, pad, dilate, outs)
        if y is not None:  # else cuDNN declined: the CuPy kernels below
            return y
    if groups == 1:
        return _conv_plain(x, W, b, stride, pad, dilate, cover_all, outs)
    col = _columns(xp, x, W.shape[2:], stride, pad, dilate, cover_all, outs)
    outs = col.shape[1 + nd:1 + 2 * nd]
    col = col.reshape(groups, -1, size_of_shape(outs) * n)  # the one copy
    y = _bmm(xp, W.reshape(groups, out_c // groups, -1), col)
    y = _batch_first(xp, y.reshape((out_c,) + outs + (n,)))
    _add_bias(y, b)
    return y


def conv_grad_w(x, gy, ksize, stride, pad, dilate, groups, held=None):
    """The filter gradient ``gW[o, k] = sum_{n, p} gy[n, o, p] col[n, p, k]``;
    ``held``: what ``conv_forward(x, ..., keep=True)`` kept (used by, or
    given back here)."""
    xp = backend.get_array_module(x)
    n, out_c = gy.shape[:2]
    c = x.shape[1]
    if held is not None and (groups != 1 or out_c == 0):
        held.release()
        held = None
    if out_c == 0:
        return xp.zeros((0, c // groups) + tuple(ksize), x.dtype)
    if xp is not numpy and _frontend().should_use('conv_wgrad', x.dtype):
        gW = _frontend().convolution_filter_grad(
            x, gy, ksize, stride, pad, dilate, groups)
        if gW is not None:
            return gW
    if groups == 1:
        return _grad_w_plain(x, gy, ksize, stride, pad, dilate, held)
    col, _ = _columns_nk(xp, x, ksize, stride, pad, dilate, False,
                         gy.shape[2:], groups)
    gy = gy.reshape((n, groups, out_c // groups, -1))
    gy = xp.ascontiguousarray(gy.transpose(1, 2, 0, 3))
    gW = _bmm(xp, gy.reshape(groups, out_c // groups, -1), col)
    return gW.reshape((out_c, c // groups) + tuple(ksize))


def deconv_forward(x, W, b, stride, pad, outsize, dilate, groups,
                   keep=False):
    """The adjoint of :func:`conv_forward` in ``x`` (a transposed conv).
    With ``keep``, ``(y, held)``: what a stride-2 Winograd deconvolution
    keeps for :func:`conv_and_grad_w` (None on other paths)."""
    xp = backend.get_array_module(x)
    n, in_c = x.shape[:2]
    ksize = W.shape[2:]
    out_c = W.shape[1] * groups
    if keep:
        if groups == 1 and _winograd.s2_applies(x, W.shape[1], ksize,
                                                stride, pad, dilate, outsize):
            return _winograd.s2_deconv(x, W, b, keep=True)
        return deconv_forward(x, W, b, stride, pad, outsize, dilate,
                              groups), None
    if in_c == 0:  # nothing to scatter: zeros (plus the bias)
        y = xp.zeros((n, out_c) + tuple(outsize), x.dtype)
        _add_bias(y, b)
        return y
    if xp is not numpy and _frontend().should_use('conv_dgrad', x.dtype):
        y = _frontend().deconvolution(x, W, b, stride, pad, dilate,
                                          outsize, groups)
        if y is not None:
            return y
    if groups == 1:
        return _deconv_plain(x, W, b, stride, pad, outsize, dilate)
    xT = xp.ascontiguousarray(_batch_last(xp, x))
    xT = xT.reshape(groups, in_c // groups, -1)
    Wg = W.reshape(groups, in_c // groups, -1).swapaxes(1, 2)
    col = _bmm(xp, Wg, xT).reshape(
        (out_c,) + tuple(ksize) + x.shape[2:] + (n,))
    y = _batch_first(xp, col2im_add(col, stride, pad, outsize, dilate,
                                    first=1))
    _add_bias(y, b)
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
        # (W may differ; it is cast, as Chainer.  So may b of an N-d one:
        # Chainer checks its dtype in 2-d only, and y takes x's.)
        if getattr(func, '_two_d', False):
            check_same_dtype(func, b, x, ('in_types[2]', 'in_types[0]'))
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
    outs = conv_nd.conv_outs(x_dims, ksize, stride, pad, cover_all,
                             dilate)
    if any(o <= 0 for o in outs):
        raise output_size_error(outs, getattr(func, '_two_d', False))
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

