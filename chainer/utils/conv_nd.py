"""N-dimensional im2col / col2im, the shared core of convolution and pooling.

``im2col`` lays the sliding windows of an image out as a column array of
shape ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``; ``col2im`` is its adjoint
(it sums every window back onto the image).  Both work on strided views:
``im2col`` is a single ``as_strided`` view of the padded image (copied only
when the caller asks for an array of its own), and ``col2im`` loops over the
kernel offsets (``prod(ksize)`` slice additions), never over pixels.  The
same code runs on NumPy and CuPy arrays.
"""

import itertools

import numpy

from chainer import backend
from chainer.utils import get_conv_outsize

try:
    from chainer.utils import _loops  # C loops, built where a compiler is
except ImportError:  # pragma: no cover - a build without one: NumPy alone
    _loops = None


# The loops that work channel by channel can split the channels among
# threads (_loops.set_threads(n), the same bytes for any n).  Where BLAS's
# own threads spin after each GEMM, a second thread of ours made the ResNet
# block, DCGAN deconvolution and LeNet steps 3-20% slower, not faster, so
# they run in the calling thread by default; but where the products run on
# chainer-ng's threads, each with a one-thread OpenBLAS (chainer.utils.
# _blas, which sets this to its thread count), no BLAS worker spins, and
# the ResNet block's step went from 51 to 47.5 ms on 2 cores (medians of
# 15, alternated; the deconvolution and LeNet steps unchanged).
DEFAULT_THREADS = 1
if _loops is not None:
    _loops.set_threads(DEFAULT_THREADS)


def as_tuple(x, n):
    """``x`` as a tuple of length ``n`` (a scalar is repeated ``n`` times).

    A sequence of another length is an AssertionError, as in Chainer.
    """
    if hasattr(x, '__getitem__'):
        if len(x) != n:
            raise AssertionError(
                'expected a scalar or a sequence of length {}, got {!r}'.format(
                    n, x))
        return tuple(x)
    return (x,) * n


def _as_strided(xp, a, shape, strides):
    if xp is numpy:
        return numpy.lib.stride_tricks.as_strided(
            a, shape=shape, strides=strides, writeable=False)
    return xp.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)


def _spatial(img, first, nd):
    return img.shape[first:first + nd]


def pad_for_windows(img, ksize, stride, pad, outs, pval=0, dilate=None,
                    first=2):
    """Pads the spatial axes ``first .. first + N`` of ``img`` so that
    ``outs`` windows fit.

    The low side gets ``pad``; the high side gets what the last window
    needs (more than ``pad`` with ``cover_all``), and the array is cropped
    where it needs less.
    """
    nd = len(ksize)
    dilate = dilate or (1,) * nd
    dims = _spatial(img, first, nd)
    lead = (slice(None),) * first
    sizes = []
    crop = []
    need_pad = False
    for d, k, s, p, o, dl in zip(dims, ksize, stride, pad, outs, dilate):
        span = (o - 1) * s + (k - 1) * dl + 1 if o > 0 else 0
        hi = span - d - p
        sizes.append(d + p + max(hi, 0))
        crop.append(slice(0, span))
        need_pad = need_pad or p > 0 or hi > 0
    if need_pad:
        xp = backend.get_array_module(img)
        shape = img.shape[:first] + tuple(sizes) + img.shape[first + nd:]
        if pval == 0:
            padded = xp.zeros(shape, img.dtype)
        else:
            padded = xp.full(shape, pval, img.dtype)
        padded[lead + tuple(slice(p, p + d) for d, p in zip(dims, pad))] = \
            img
        img = padded
    return img[lead + tuple(crop)]


def conv_outs(dims, ksize, stride, pad, cover_all=False, dilate=None):
    dilate = dilate or (1,) * len(ksize)
    return tuple(get_conv_outsize(d, k, s, p, cover_all, dl) for
                 d, k, s, p, dl in zip(dims, ksize, stride, pad, dilate))


def im2col_view(img, ksize, stride, pad, pval=0, cover_all=False,
                dilate=None, outs=None, first=2):
    """A read-only strided view of the windows of ``img``.

    With the spatial axes at ``first .. first + N``, the view has the shape
    ``img.shape[:first] + ksize + outs + img.shape[first + N:]`` (so
    ``(n, c, *ksize, *outs)`` for an ``(n, c, *dims)`` image).
    """
    nd = len(ksize)
    dilate = dilate or (1,) * nd
    if outs is None:
        outs = conv_outs(_spatial(img, first, nd), ksize, stride, pad,
                         cover_all, dilate)
    if any(o <= 0 for o in outs):
        raise ValueError(
            'im2col: the output size is not positive ({}): the input {} is '
            'too small for the kernel {}'.format(
                outs, _spatial(img, first, nd), ksize))
    padded = pad_for_windows(img, ksize, stride, pad, outs, pval, dilate,
                             first)
    xp = backend.get_array_module(img)
    st = padded.strides
    sp = st[first:first + nd]
    strides = st[:first] + tuple(a * dl for a, dl in zip(sp, dilate)) + \
        tuple(a * s for a, s in zip(sp, stride)) + st[first + nd:]
    shape = padded.shape[:first] + tuple(ksize) + tuple(outs) + \
        padded.shape[first + nd:]
    return _as_strided(xp, padded, shape, strides)


def window_slices(ksize, stride, outs, dilate=None, first=2):
    """``(offset, index)`` pairs: for each kernel offset, the index that
    picks that offset of every window out of the padded image."""
    nd = len(ksize)
    dilate = dilate or (1,) * nd
    lead = (slice(None),) * first
    for offset in itertools.product(*[range(k) for k in ksize]):
        yield offset, lead + tuple(
            slice(i * dl, i * dl + (o - 1) * s + 1, s)
            for i, dl, o, s in zip(offset, dilate, outs, stride))


def col2im_add(col, stride, pad, dims, dilate=None, first=2):
    """Sums the windows of ``col`` (``lead + ksize + outs + trail``) onto an
    image with spatial shape ``dims`` (the adjoint of :func:`im2col_view`).

    Returns a (possibly non-contiguous) view of a new array.
    """
    nd = len(dims)
    dilate = dilate or (1,) * nd
    ksize = col.shape[first:first + nd]
    outs = col.shape[first + nd:first + 2 * nd]
    xp = backend.get_array_module(col)
    size = tuple(max(d + 2 * p, (o - 1) * s + (k - 1) * dl + 1)
                 for d, p, o, s, k, dl in zip(dims, pad, outs, stride,
                                              ksize, dilate))
    lead = (slice(None),) * first
    img = xp.zeros(col.shape[:first] + size + col.shape[first + 2 * nd:],
                   col.dtype)
    if _native_add(xp, col):
        for offset, index in window_slices(ksize, stride, outs, dilate,
                                           first):
            _loops.add(img[index], col[lead + offset])
    elif _flat_windows_pay(xp, col, stride, dilate):
        _add_windows_flat(img, col, ksize, outs, first)
    else:
        for offset, index in window_slices(ksize, stride, outs, dilate,
                                           first):
            img[index] += col[lead + offset]
    return img[lead + tuple(slice(p, p + d) for p, d in zip(pad, dims))]


def copy_array(view):
    """A C-contiguous copy of ``view``.  On NumPy with the C loops built
    (``chainer.utils._loops``), the short rows of a window view move as
    whole runs; NumPy would pay its iterator once per few elements."""
    if _loops is not None and type(view) is numpy.ndarray and \
            view.size and not view.dtype.hasobject:
        out = numpy.empty(view.shape, view.dtype)
        _loops.copyto(out, view)
        return out
    return view.copy()


def _native_add(xp, col):
    """Whether the C additions apply (NumPy float32 or float64 in the
    machine's byte order, the loops built)."""
    return (_loops is not None and xp is numpy and col.size > 0 and
            col.dtype.char in 'fd' and col.dtype.isnative)


def _flat_windows_pay(xp, col, stride, dilate):
    """Whether :func:`_add_windows_flat` applies: NumPy (where a window of
    the image is many short runs for its loops), numbers, unit strides and
    dilations."""
    return (xp is numpy and col.size > 0 and col.dtype.kind in 'fciu'
            and all(s == 1 for s in stride) and all(d == 1 for d in dilate))


def _add_windows_flat(img, col, ksize, outs, first):
    """``img[window(offset)] += col[offset]`` for each kernel offset in
    row-major order, as one contiguous addition per offset and lead index.

    With unit strides, the window of an offset is the image plane shifted
    by a constant.  Each offset's columns are copied into a buffer ``buf``
    laid out like the image plane (the first spatial axis cut to
    ``outs[0]``, zeros outside the window), and the plane's contiguous run
    from that shift is added with ``buf``'s own run.  Every image element
    receives the same values in the same order as with the windowed
    additions, plus additions of ``+0.0`` from the zeros of ``buf``; those
    are exact no-ops: ``a + 0.0 == a`` bit for bit unless ``a`` is
    ``-0.0``, and an accumulator that starts at ``+0.0`` is never ``-0.0``
    (a rounded-to-nearest sum is ``-0.0`` only when both terms are).
    """
    nd = len(ksize)
    lead_shape = img.shape[:first]
    nlead = 1
    for t in lead_shape:
        nlead *= t
    plane = img.size // nlead
    pstrides = [s // img.itemsize for s in img.strides[first:first + nd]]
    trail = img.strides[first + nd - 1] // img.itemsize
    # One past the last window element of the plane.
    length = sum((o - 1) * s for o, s in zip(outs, pstrides)) + trail
    buf = numpy.zeros(lead_shape + (outs[0],) + img.shape[first + 1:],
                      img.dtype)
    lead = (slice(None),) * first
    win = buf[lead + (slice(None),) +
              tuple(slice(0, o) for o in outs[1:])]
    run = buf.reshape(nlead, -1)[:, :length]
    img2 = img.reshape(nlead, plane)
    for offset in itertools.product(*[range(k) for k in ksize]):
        numpy.copyto(win, col[lead + offset])
        base = sum(i * s for i, s in zip(offset, pstrides))
        dst = img2[:, base:base + length]
        numpy.add(dst, run, out=dst)


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False,
                  dilate=1):
    """Columns ``(n, c, *ksize, *outs)`` of an N-d image (a new array)."""
    nd = img.ndim - 2
    view = im2col_view(img, as_tuple(ksize, nd), as_tuple(stride, nd),
                       as_tuple(pad, nd), pval, cover_all,
                       as_tuple(dilate, nd))
    return copy_array(view)


def im2col_nd_gpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """CuPy twin of :func:`im2col_nd_cpu` (same strided-view algorithm)."""
    return im2col_nd_cpu(img, ksize, stride, pad, 0, cover_all, dilate)


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1):
    """:func:`im2col_nd_cpu` or :func:`im2col_nd_gpu` by the array type."""
    return im2col_nd_cpu(img, ksize, stride, pad, 0, cover_all, dilate)


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Sums columns ``(n, c, *ksize, *outs)`` back onto an image
    ``(n, c, *dims)``."""
    nd = len(dims)
    if col.ndim != 2 + 2 * nd:
        raise AssertionError(
            'col2im_nd_cpu: col must have {} axes (n, c, {} kernel axes, {} '
            'output axes) for {}-d dims, got shape {}'.format(
                2 + 2 * nd, nd, nd, nd, col.shape))
    return col2im_add(col, as_tuple(stride, nd), as_tuple(pad, nd),
                      tuple(dims), as_tuple(dilate, nd)).copy()


def col2im_nd_gpu(col, stride, pad, dims, dilate=1):
    """CuPy twin of :func:`col2im_nd_cpu`."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate)


def col2im_nd(col, stride, pad, dims, dilate=1):
    """:func:`col2im_nd_cpu` or :func:`col2im_nd_gpu` by the array type."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate)
