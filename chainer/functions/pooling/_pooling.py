"""Array-level N-d pooling shared by the pooling family.

Every pooling reduces the windows of a padded ``(n, c, *dims)`` array; the
windows are strided slices of it (one per kernel offset, from
:func:`chainer.utils.conv_nd.window_slices`), so a pooling costs
``prod(ksize)`` whole-array operations and no loop over pixels.  Each
reduction has its adjoint here (a scatter back onto the image), which the
backward nodes use.
"""

import itertools

import numpy

from chainer import backend
from chainer.functions._errors import invalid_type, output_size_error
from chainer.utils import get_conv_outsize, get_deconv_outsize
from chainer.utils.conv_nd import as_tuple, pad_for_windows, window_slices


def normalize(nd, ksize, stride, pad):
    ksize = as_tuple(ksize, nd)
    stride = ksize if stride is None else as_tuple(stride, nd)
    pad = as_tuple(pad, nd)
    for name, values, low in (('ksize', ksize, 1), ('stride', stride, 1),
                              ('pad', pad, 0)):
        if any(v < low for v in values):
            raise ValueError('{} must be {} integers, got {}'.format(
                name, 'positive' if low else 'non-negative', values))
    return ksize, stride, pad


def pool_outs(dims, ksize, stride, pad, cover_all):
    return tuple(get_conv_outsize(d, k, s, p, cover_all) for d, k, s, p in
                 zip(dims, ksize, stride, pad))


def unpool_outsize(dims, ksize, stride, pad, cover_all):
    return tuple(get_deconv_outsize(d, k, s, p, cover_all) for d, k, s, p in
                 zip(dims, ksize, stride, pad))


def check_input(func, x, nd):
    if x.dtype.kind != 'f':
        raise invalid_type(func, 'in_types[0].dtype.kind == f',
                           '{} != f'.format(x.dtype.kind))
    if x.ndim != nd + 2:
        raise invalid_type(func, 'in_types[0].ndim == {}'.format(nd + 2),
                           '{} != {}'.format(x.ndim, nd + 2))


def check_outs(func, dims, outs):
    if any(o <= 0 for o in outs):
        # Chainer's words: its average pooling in 2-D names the side, its
        # max pooling (an N-d one in every dimension) the sizes
        raise output_size_error(outs, func.label == 'AveragePooling2D')


def _windows(x, ksize, stride, pad, outs, pval, first=2):
    padded = pad_for_windows(x, ksize, stride, pad, outs, pval, first=first)
    for offset, index in window_slices(ksize, stride, outs, first=first):
        yield padded[index]


def _channels_last(x):
    """Whether ``x`` is an ``(n, *dims, c)`` C-contiguous buffer seen as
    ``(n, c, *dims)`` (the layout of a convolution's output)."""
    return x.ndim > 2 and not x.flags.c_contiguous and \
        numpy.moveaxis(x, 1, -1).flags.c_contiguous


def max_pool(x, ksize, stride, pad, outs):
    """The window maxima and the flat kernel index of each (the first one
    among ties, a NaN counting as the largest: what argmax gives)."""
    xp = backend.get_array_module(x)
    if xp is numpy and x.size and _channels_last(x):
        # Channels-last buffer: the window passes run in its own memory
        # order (elementwise, so the values are the same), and the results
        # are laid out as usual at the end.
        y, indexes = _max_pool(xp, numpy.moveaxis(x, 1, -1), ksize, stride,
                               pad, outs, 1)
        return (numpy.ascontiguousarray(numpy.moveaxis(y, -1, 1)),
                numpy.ascontiguousarray(numpy.moveaxis(indexes, -1, 1)))
    return _max_pool(xp, x, ksize, stride, pad, outs, 2)


def _max_pool(xp, x, ksize, stride, pad, outs, first):
    windows = list(_windows(x, ksize, stride, pad, outs, -float('inf'),
                            first))
    y = windows[0].copy()
    if 1 < len(windows) <= 8:
        # The first offset holding the maximum is the last one where the
        # running maximum strictly grew (ties, +-0 included, keep the
        # earlier offset); offsets grow, so a maximum keeps the latest.
        indexes = None
        for k, s in enumerate(windows[1:], 1):
            grew = (s > y).view(numpy.int8)
            if indexes is None:
                indexes = grew
            else:
                if k > 1:
                    grew = grew * numpy.int8(k)
                xp.maximum(indexes, grew, out=indexes)
            xp.maximum(y, s, out=y)
        # A NaN never grew the maximum: its windows take their first NaN.
        if xp is not numpy or (y.size and xp.isnan(y.min())):
            _first_nan(xp, windows, y, indexes)
        return y, indexes
    for s in windows[1:]:
        xp.maximum(y, s, out=y)
    if len(windows) <= 8:
        return y, xp.zeros(y.shape, numpy.int8)
    indexes = xp.full(y.shape, len(windows) - 1, numpy.int32)
    for k in range(len(windows) - 2, -1, -1):
        xp.copyto(indexes, k, where=windows[k] == y)
    if xp is not numpy or (y.size and xp.isnan(y.min())):
        _first_nan(xp, windows, y, indexes)
    return y, indexes


def _first_nan(xp, windows, y, indexes):
    """Points the windows whose maximum is NaN at their first NaN (no host
    sync: on a GPU this runs whether or not there is one)."""
    nan = y != y
    for k in range(len(windows) - 1, -1, -1):
        s = windows[k]
        xp.copyto(indexes, k, where=nan & (s != s))


def _scatter(gy, ksize, stride, pad, dims, where_index=None):
    """Adds ``gy`` to the window positions of an image of size ``dims``:
    every position, or only the ones ``where_index`` gives per window."""
    xp = backend.get_array_module(gy)
    outs = gy.shape[2:]
    if where_index is not None and not any(pad) and \
            tuple(stride) == tuple(ksize) and \
            all(o * k <= d for o, k, d in zip(outs, ksize, dims)):
        return _scatter_tiles(xp, gy, where_index, ksize, dims)
    size = tuple(max(d + 2 * p, (o - 1) * s + k) for d, p, o, s, k in
                 zip(dims, pad, outs, stride, ksize))
    img = xp.zeros(gy.shape[:2] + size, gy.dtype)
    disjoint = all(s >= k for s, k in zip(stride, ksize))
    for k, (_, index) in enumerate(window_slices(ksize, stride, outs)):
        if where_index is None:
            img[index] += gy
        elif disjoint:
            # copyto, not a product with the mask: the positions no window
            # picked stay +0.0 (gy * False would give -0.0 for negative gy)
            xp.copyto(img[index], gy, where=where_index == k)
        else:
            img[index] += gy * (where_index == k)
    img = img[(Ellipsis,) + tuple(slice(p, p + d) for p, d in
                                  zip(pad, dims))]
    return xp.ascontiguousarray(img)


def _scatter_tiles(xp, gy, where_index, ksize, dims):
    """:func:`_scatter` of picked positions when the windows tile the
    image (stride = ksize, no padding): each kernel offset fills its own
    strided plane of the ``(n, c, o1, k1, o2, k2, ...)`` view of the image
    with ``gy * (index == offset)``, no masked writes."""
    outs = gy.shape[2:]
    lead = gy.shape[:2]
    g = xp.empty(lead + sum(((o, k) for o, k in zip(outs, ksize)), ()),
                 gy.dtype)
    for k, offset in enumerate(itertools.product(*map(range, ksize))):
        plane = (Ellipsis,) + sum(((slice(None), i) for i in offset), ())
        xp.multiply(gy, where_index == k, out=g[plane])
    # gy * False is -0.0 for a negative gy; Chainer leaves +0.0 there.
    g += 0
    covered = tuple(o * k for o, k in zip(outs, ksize))
    g = g.reshape(lead + covered)
    if covered == tuple(dims):
        return g
    img = xp.zeros(lead + tuple(dims), gy.dtype)
    img[(Ellipsis,) + tuple(slice(0, c) for c in covered)] = g
    return img


def max_unpool(gy, indexes, ksize, stride, pad, dims):
    """Scatters ``gy`` to the positions ``indexes`` picked (the adjoint of
    :func:`gather`)."""
    return _scatter(gy, ksize, stride, pad, dims, indexes)


def gather(x, indexes, ksize, stride, pad, outs):
    """Picks from each window of ``x`` the element ``indexes`` says."""
    xp = backend.get_array_module(x)
    y = xp.zeros(x.shape[:2] + tuple(outs), x.dtype)
    for k, s in enumerate(_windows(x, ksize, stride, pad, outs, 0)):
        xp.copyto(y, s, where=indexes == k)
    return y


def sum_pool(x, ksize, stride, pad, outs, rows_first=False):
    """The window sums (zero padding), added in kernel order; with
    ``rows_first`` the sums along the last kernel axis are formed first and
    then added up (Chainer's order for the gradient of unpooling, whose
    windows tile the image)."""
    windows = _windows(x, ksize, stride, pad, outs, 0)
    if rows_first and ksize[-1] > 1:
        windows = _row_sums(windows, ksize[-1])
    y = None
    for s in windows:
        if y is None:
            y = s.copy()
        else:
            y += s
    return y


def _row_sums(windows, k):
    windows = list(windows)
    for i in range(0, len(windows), k):
        row = windows[i].copy()
        for s in windows[i + 1:i + k]:
            row += s
        yield row


def sum_unpool(gy, ksize, stride, pad, dims):
    """Adds every element of ``gy`` to its whole window (the adjoint of
    :func:`sum_pool`)."""
    return _scatter(gy, ksize, stride, pad, dims)
