"""Winograd convolutions: 3x3 convolutions of stride 1 in fewer products.

A 2x2 tile of the output is ``A^T [(G g G^T) * (B^T d B)] A`` for the 4x4
input tile ``d`` under it and the 3x3 filter ``g`` (Lavin and Gray, "Fast
Algorithms for Convolutional Neural Networks", 2016: F(2x2, 3x3)): 16
products per tile and channel pair where im2col takes 36.  Summed over the
input channels, the products are 16 GEMMs, one per position of the 4x4
tile, of ``(out_c, c) @ (c, tiles)``.  With 4x4 output tiles (F(4x4,
3x3), for wide images: see :data:`WIDE`), the input tiles are 6x6 and the
products 36 for 16 outputs: 2.25 per output where F(2x2, 3x3) takes 4, and
as many items of tiles through memory.  Its float32 results are a few
times less accurate (the transforms have entries up to 8 and 1/24): about
1e-6 of the largest output with 64 channels, against 1e-7.  The C loops
(``chainer.utils._loops``) make the tiles; the filter transforms are GEMMs
in NumPy.

The input gradient of such a convolution is one too (the filter flipped
and its channels swapped, the padding ``2 - pad``), and the filter
gradient is ``G^T [sum over tiles of (A gy A^T) * (B^T d B)] G``: the same
input tiles, and a GEMM per position of ``(out_c, tiles) @ (tiles, c)``.

Without the C loops, or where it does not pay (below), the im2col path of
``_conv`` runs instead.  Tiles of a whole chunk of samples go through
memory (4 times the image, each way, for 2x2 output tiles); smaller chunks,
to stay in the cache, measured slower (the GEMMs per chunk wait for BLAS's
threads).  The products of a chunk go to chainer-ng's threads, positions
taken in turn, each with a one-thread OpenBLAS (:mod:`chainer.utils._blas`),
and the tile loops split while a convolution runs: the ResNet block's step
(32/64/64/32x32, forward and backward of two convolutions with batch
normalization) went from 72 to 54 ms on 2 cores, alternated with PyTorch's
(55 ms).
"""

import functools

import numpy

from chainer.functions.connection import _conv
from chainer.utils import _blas
from chainer.utils import conv_nd

# G of the filter transform U = G g G^T (and of its adjoint G^T dU G), for
# 2x2 output tiles, and for 4x4 (F(4x4, 3x3): 6x6 input tiles, 36 products
# for 16 outputs; the C loops pick the scheme by the tiles' 16 or 36
# positions).
_G = numpy.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]])
_G4 = numpy.array([[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6],
                   [-1 / 6, 1 / 6, -1 / 6], [1 / 24, 1 / 12, 1 / 6],
                   [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]])


# Where it pays, measured on 2 shared cores against the im2col path
# (float32; batch, in and out channels, size; medians of alternating
# runs): the ResNet block's 32/64/64/32x32 forward 17.4 -> 12.1 ms and
# input gradient 16.7 -> 12.0 ms; 32/128/128/16x16 13.4 -> 9.6 ms and
# 16/256/256/16x16 20.5 -> 16.1 ms.  It loses with few channels (3 in:
# 1.1 -> 3.9 ms, the tile transforms outweigh GEMMs of 3 rows) and with
# few tiles (1/64/64/32x32: 0.5 -> 0.7 ms, 8/256/256/8x8: 2.9 -> 5.5 ms:
# 16 small GEMMs, and the filter transform not paid back); 8/128/128/16x16
# (512 tiles) is a tie.  The filter gradient transforms both x and gy, 4
# times their size each: it pays only with many channels (32/64/64/32x32
# 17.2 -> 18.3 ms, 32/16/16/32x32 2.8 -> 3.7 ms, but 32/128/128/16x16
# 13.0 -> 11.4 ms and 16/256/256/16x16 22.4 -> 16.4 ms); with 4x4 tiles
# and the loops in AVX-512, 32/64/64/32x32 runs in 9.8 ms against 14.4.
MIN_CHANNELS = 16
MIN_TILES = 1024
GRAD_W_MIN_CHANNELS = 64
# The tiles of a chunk of samples at most (V and M together): twice the
# im2col path's buffer, so that the ResNet block's batch of 32 is one chunk
# of longer GEMMs (its step 74.6 -> 71.6 ms, medians of 8 alternated).
CHUNK_BYTES = 1 << 26
# F(4x4, 3x3) where the output rows are at least this wide (its loops run
# along a row of tiles: 8 tiles and more pay), else F(2x2, 3x3).  Measured
# on 2 cores (float32; batch, in and out channels, size): 32/64/64/32x32
# forward 9.2 -> 8.2 ms, filter gradient 14.4 (im2col) -> 9.8 ms; but
# 32/128/128/16x16 forward 7.3 -> 8.0 ms.
WIDE = 32


def applies(x, out_c, ksize, stride, pad, dilate):
    """Whether a convolution of ``x`` (groups 1) into ``out_c`` channels
    runs as Winograd: a NumPy float32 or float64 image, the C loops built,
    a 3x3 filter, stride and dilation 1, pads 0 to 2, and enough channels
    and 2x2 output tiles (see above)."""
    if not (conv_nd._loops is not None and type(x) is numpy.ndarray and
            x.ndim == 4 and x.dtype.char in 'fd' and x.dtype.isnative and
            tuple(ksize) == (3, 3) and tuple(stride) == (1, 1) and
            tuple(dilate) == (1, 1) and all(0 <= p <= 2 for p in pad)):
        return False
    n, c, h, w = x.shape
    th, tw = _tiles((h + 2 * pad[0] - 2, w + 2 * pad[1] - 2))
    return (th > 0 and tw > 0 and min(c, out_c) >= MIN_CHANNELS and
            n * th * tw >= MIN_TILES)


def grad_w_pays(c, out_c):
    """Whether a filter gradient that :func:`applies` should run as
    Winograd too (see above)."""
    return min(c, out_c) >= GRAD_W_MIN_CHANNELS


def _tiles(dims, m=2):
    """Output tiles of side ``m`` along each axis."""
    return tuple((d + m - 1) // m for d in dims)


def _tile(width):
    """The side of the output tiles for output rows of ``width`` items."""
    return 4 if width >= WIDE else 2


def _positions(m):
    """The positions of the input tiles under output tiles of side ``m``
    (2 or 4): ``(m + 2) ** 2`` for a 3x3 filter."""
    return (m + 2) ** 2


def _stride(rows, cols, itemsize):
    """Items from one tile position's ``(rows, cols)`` block to the next.
    A block of a multiple of 4 KiB would put the 16 positions of a tile in
    one set of the L1 cache, and the C loops write (or read) all 16 at once:
    measured, the input tiles of the ResNet block took 33 ms so, and 5 ms
    with the blocks 64 bytes further apart (one cache line more)."""
    size = -(-rows * cols * itemsize // 4096) * 4096 + 64
    return size // itemsize


def _blocks(buf, start, positions, rows, cols):
    """A ``(positions, rows, cols)`` view of ``buf`` from ``start``, each
    block C-contiguous and :func:`_stride` items after the previous one."""
    ps = _stride(rows, cols, buf.itemsize)
    return buf[start:start + positions * ps].reshape(positions, ps)[
        :, :rows * cols].reshape(positions, rows, cols)


def _chunked(x, out_c, tiles, positions):
    """``(s, e, V, M)`` for each chunk of samples ``s .. e - 1``: views of
    one buffer (``_conv``'s pool, so it stays mapped from call to call)
    for the input tiles ``V (positions, c, t)`` and the output side ``M
    (positions, out_c, t)`` of ``t`` tiles."""
    n, c = x.shape[:2]
    per = tiles[0] * tiles[1]
    step = _conv._chunk(numpy, n, positions * per * (c + out_c) * x.itemsize,
                        CHUNK_BYTES)
    size = positions * (_stride(c, per * step, x.itemsize) +
                        _stride(out_c, per * step, x.itemsize))
    buf = _conv._buffer(numpy, size, x.dtype)
    for s in range(0, n, step):
        e = min(n, s + step)
        t = (e - s) * per
        V = _blocks(buf, 0, positions, c, t)
        yield s, e, V, _blocks(buf, positions * _stride(c, t, x.itemsize),
                               positions, out_c, t)
    _conv._give_back(buf)


@functools.lru_cache(maxsize=None)
def _kron(m, dtype):
    """``K[a i + j, 3 k + l] = G[i, k] G[j, l]`` for the ``G`` (``a`` rows)
    of output tiles of side ``m``: the filter transform ``G g G^T`` of a
    flattened 3x3 filter as one product, ``K @ g``.  Made once per side and
    dtype, read-only."""
    G = _G4 if m == 4 else _G
    K = numpy.kron(G, G).astype(dtype)
    K.flags.writeable = False
    return K


def _filter_tiles(W, dtype, m=2):
    """``U[a i + j] = (G g G^T)[i, j]`` (``a = m + 2``) for every filter
    ``g`` of ``W`` (``(out_c, c, 3, 3)``), as a ``(a a, out_c, c)`` array:
    one GEMM in ``dtype`` (512 x 256 filters, 4x4 tiles: 1.4 ms, where
    two float64 GEMMs and their transposes took 19 ms)."""
    out_c, c = W.shape[:2]
    g = W.reshape(out_c * c, 9)
    if g.dtype != dtype:
        g = g.astype(dtype)
    return _blas.matmul(_kron(m, dtype), g.T).reshape(
        _positions(m), out_c, c)


def conv(x, W, b, pad, m=None):
    """``convolution_2d(x, W, b, pad=pad)`` for a case that
    :func:`applies`, with output tiles of side ``m`` (by :func:`_tile` if
    None)."""
    n, c, h, w = x.shape
    out_c = W.shape[0]
    outs = (h + 2 * pad[0] - 2, w + 2 * pad[1] - 2)
    m = _tile(outs[1]) if m is None else m
    positions = _positions(m)
    th, tw = _tiles(outs, m)
    U = _filter_tiles(W, x.dtype, m)
    y = numpy.empty((n, out_c) + outs, x.dtype)
    if b is not None:
        b = numpy.ascontiguousarray(b, x.dtype)
    for s, e, V, M in _chunked(x, out_c, (th, tw), positions):
        conv_nd._loops.winograd_input(V, x[s:e], tuple(pad) + (th, tw))
        _blas.run(_products(positions, lambda p: numpy.matmul(
            U[p], V[p], out=M[p])))
        conv_nd._loops.winograd_output(y[s:e], M, b)
    return y


def _products(positions, product):
    """The products of every position, as one part per thread of
    :func:`_blas.run` (positions taken in turn)."""
    n = _blas.threads()

    def part(k):
        def run():
            for p in range(k, positions, n):
                product(p)
        return run
    return [part(k) for k in range(n)]


def deconv(x, W, b, pad, m=None):
    """``deconvolution_2d(x, W, b, pad=pad)`` (stride 1), as the
    convolution with the filter flipped and its axes swapped."""
    Wc = W.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1]
    return conv(x, Wc, b, tuple(2 - p for p in pad), m)


def grad_w(x, gy, pad, m=None):
    """The filter gradient of :func:`conv`: ``G^T dU G`` with ``dU[p] =
    sum over tiles of (A gy A^T)[p] (B^T d B)[p]``."""
    m = _tile(gy.shape[3]) if m is None else m
    positions = _positions(m)
    n, c = x.shape[:2]
    out_c = gy.shape[1]
    th, tw = _tiles(gy.shape[2:], m)
    dU = numpy.empty((positions, out_c, c), x.dtype)
    tmp = None
    for s, e, V, dM in _chunked(x, out_c, (th, tw), positions):
        conv_nd._loops.winograd_input(V, x[s:e], tuple(pad) + (th, tw))
        conv_nd._loops.winograd_grad(dM, gy[s:e])
        # the first chunk's products into dU, a later one's added to it
        if s and tmp is None:
            tmp = numpy.empty_like(dU)
        out = tmp if s else dU
        _blas.run(_products(positions, lambda p: numpy.matmul(
            dM[p], V[p].T, out=out[p])))
        if s:
            dU += tmp
    # gW = G^T dU G for each (out_c, c) pair: the adjoint of
    # _filter_tiles' product
    gW = _blas.matmul(_kron(m, x.dtype).T,
                      dU.reshape(positions, -1))  # (9, (o, c))
    return numpy.ascontiguousarray(gW.T).reshape(out_c, c, 3, 3)
