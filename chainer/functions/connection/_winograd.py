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

Stride-2 4x4 deconvolutions with pad 1 (and the convolutions they are the
adjoints of) have their own Winograd form: see the ``s2_`` section below.

Without the C loops, or where it does not pay (below), the im2col path of
``_conv`` runs instead.  Tiles of a whole chunk of samples go through
memory (4 times the image, each way, for 2x2 output tiles); smaller chunks,
to stay in the cache, measured slower (the GEMMs per chunk wait for BLAS's
threads).  The products of a chunk go to chainer-ng's threads, positions
taken in turn, each with a one-thread OpenBLAS (:mod:`chainer.utils._blas`),
and the tile loops split over the cores too: the ResNet block's step
(32/64/64/32x32, forward and backward of two convolutions with batch
normalization) went from 72 to 54 ms on 2 cores, alternated with PyTorch's
(55 ms).
"""

import functools
import math

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


def grad_w_applies(x, out_c, ksize, stride, pad, dilate):
    """Whether the filter gradient of a convolution of ``x`` runs as
    :func:`grad_w` (so that its forward may keep ``x``'s positions)."""
    return (x.shape[0] > 0 and applies(x, out_c, ksize, stride, pad,
                                       dilate) and
            grad_w_pays(x.shape[1], out_c))


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


class _Held:
    """What a forward (:func:`conv`, :func:`s2_deconv`) kept for the
    filter gradient of its backward: its buffer of ``_conv``'s pool (given
    back once used), holding the input ``x``'s positions (the whole batch)
    and, for :func:`s2_deconv`, the filter transforms of ``W``; ``m``, the
    side of the output tiles (0 for s2)."""

    __slots__ = ('buf', 'x', 'W', 'm')

    def __init__(self, buf, x, W, m=0):
        self.buf, self.x, self.W, self.m = buf, x, W, m

    def matches(self, x, W, m, dtype):
        """Whether it holds ``x``'s positions (and ``W``'s) for tiles of
        side ``m`` in ``dtype``; if not, its buffer goes back."""
        if self.x is x and (W is None or self.W is W) and self.m == m and \
                self.buf.dtype == dtype:
            return True
        self.release()
        return False

    def release(self):
        """Gives the buffer back to the pool, unused."""
        _conv._give_back(self.buf)


def _chunked(n, c, out_c, per, positions, dtype, held=None, last=False,
             extra=None):
    """``(s, e, V, M, X)`` for each chunk of samples ``s .. e - 1`` of
    ``n``: views of one buffer (``_conv``'s pool, so it stays mapped from
    call to call) for the input side ``V (positions, c, t)`` and the output
    side ``M (positions, out_c, t)`` of ``t`` tiles, ``per`` tiles a sample
    (with ``last``, channels last: ``(positions, t, c)`` and ``(positions,
    t, out_c)``), and ``X``, an array of shape ``extra`` after them (the
    same for every chunk; None without ``extra``).  With ``held`` (a
    :class:`_Held`), its buffer, the batch as one chunk.  Closing the
    generator early keeps the buffer from the pool."""
    itemsize = numpy.dtype(dtype).itemsize
    step = n if held is not None else _conv._chunk(
        numpy, n, positions * per * (c + out_c) * itemsize, CHUNK_BYTES)
    sides = positions * (_stride(c, per * step, itemsize) +
                         _stride(out_c, per * step, itemsize))
    size = sides + (math.prod(extra) if extra else 0)
    buf = held.buf if held is not None else _conv._buffer(numpy, size,
                                                           dtype)
    X = buf[sides:size].reshape(extra) if extra else None
    for s in range(0, n, step):
        e = min(n, s + step)
        t = (e - s) * per
        V = _blocks(buf, 0, positions, *((t, c) if last else (c, t)))
        M = _blocks(buf, positions * _stride(c, t, itemsize), positions,
                    *((t, out_c) if last else (out_c, t)))
        yield s, e, V, M, X
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


def conv(x, W, b, pad, m=None, keep=False):
    """``convolution_2d(x, W, b, pad=pad)`` for a case that
    :func:`applies`, with output tiles of side ``m`` (by :func:`_tile` if
    None).  With ``keep``, ``(y, held)``: ``x``'s positions for
    :func:`grad_w` (a :class:`_Held`, or None where the batch took several
    chunks), instead of computing them again."""
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
    held = None
    chunks = _chunked(n, c, out_c, th * tw, positions, x.dtype)
    for s, e, V, M, _ in chunks:
        conv_nd._loops.winograd_input(V, x[s:e], tuple(pad) + (th, tw))
        _blas.run(_products(positions, lambda p: numpy.matmul(
            U[p], V[p], out=M[p])))
        conv_nd._loops.winograd_output(y[s:e], M, b)
        if keep and e - s == n:  # one chunk: its buffer stays with V
            held = _Held(V.base, x, None, m)  # (NumPy's base: the owner)
            chunks.close()
    return (y, held) if keep else y


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


def _sum_products(dU, s, positions, product):
    """``dU[p]`` takes ``product(p, out)`` (writing ``out``) of every
    position for the first chunk of samples (``s`` 0); a later chunk's are
    added to it."""
    out = numpy.empty_like(dU) if s else dU
    _blas.run(_products(positions, lambda p: product(p, out[p])))
    if s:
        dU += out


def deconv(x, W, b, pad, m=None):
    """``deconvolution_2d(x, W, b, pad=pad)`` (stride 1), as the
    convolution with the filter flipped and its axes swapped."""
    Wc = W.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1]
    return conv(x, Wc, b, tuple(2 - p for p in pad), m)


def grad_w(x, gy, pad, m=None, held=None):
    """The filter gradient of :func:`conv`: ``G^T dU G`` with ``dU[p] =
    sum over tiles of (A gy A^T)[p] (B^T d B)[p]``; ``held``, from
    ``conv(x, ..., keep=True)``, has ``x``'s positions."""
    m = _tile(gy.shape[3]) if m is None else m
    if held is not None and not held.matches(x, None, m, x.dtype):
        held = None
    positions = _positions(m)
    n, c = x.shape[:2]
    out_c = gy.shape[1]
    th, tw = _tiles(gy.shape[2:], m)
    dU = numpy.empty((positions, out_c, c), x.dtype)
    for s, e, V, dM, _ in _chunked(n, c, out_c, th * tw, positions,
                                   x.dtype, held):
        if held is None:
            conv_nd._loops.winograd_input(V, x[s:e], tuple(pad) + (th, tw))
        conv_nd._loops.winograd_grad(dM, gy[s:e])
        _sum_products(dU, s, positions, lambda p, out: numpy.matmul(
            dM[p], V[p].T, out=out))
    # gW = G^T dU G for each (out_c, c) pair: the adjoint of
    # _filter_tiles' product
    gW = _blas.matmul(_kron(m, x.dtype).T,
                      dU.reshape(positions, -1))  # (9, (o, c))
    return numpy.ascontiguousarray(gW.T).reshape(out_c, c, 3, 3)


# --- stride-2 4x4 deconvolutions with pad 1 ---------------------------------
#
# DCGAN's upsampling layers (and the stride-2 4x4 convolutions of its
# discriminator, their adjoints).  Along each axis the deconvolution's
# outputs alternate between two phases, each a correlation of the input
# padded by one with a 2-tap filter (W[3], W[1] for even outputs, W[2],
# W[0] for odd ones).  Four outputs of a phase are a Winograd F(4, 2) at
# the points 0, 1, -1, 1/2 and infinity: 5 products for 8 multiply-adds.
# Both phases of 8 outputs read one 6-item window of the padded input
# (windows 4 apart), so a 6x6 window gives 10 x 10 = 100 positions and an
# 8x8 block of the output: 100 products where im2col takes 256.  Summed
# over the input channels, the products are 100 GEMMs of ``(tiles, c) @
# (c, out_c)``; the C loops (``winograd_s2_*``) make the windows' and the
# blocks' positions, channels last, and take them back.  The input gradient runs the
# adjoint steps (the output gradient's blocks to positions, the products
# with the filters' transposes, the windows summed where they overlap),
# the filter gradient the products of the output gradient's positions with
# the input's.  float32 results are about 1e-6 of the largest output off
# the im2col path's (the transforms hold 8/3, 1/6 and 1/8).

# G of F(4, 2) for a 2-tap filter g, y = AT [(G g) * (BT d)] for 4 outputs
# of 5 inputs d (BT and AT are in the C loops).
_G2 = numpy.array([[1, 0], [1, 1], [1, -1], [1, 1 / 2], [0, 1]])

# Where it pays: at least so many channels each side, and 8x8 output
# blocks.  Measured on 2 cores against the im2col path (float32; batch, in
# and out channels, input size; a step of forward, input and filter
# gradients, medians): DCGAN's 16/256/128/16x16 56 -> 43 ms,
# 64/512/256/4x4 (64 blocks) 62 -> 54 ms, 64/256/128/8x8 57 -> 40 ms,
# 64/128/64/16x16 73 -> 60 ms; a tie at 16/64/32/16x16 (6.7 ms); losses
# with fewer: 16/32/16/16x16 3.0 -> 4.6 ms, 16/512/256/4x4 (16 blocks)
# 24 -> 31 ms, 8/32/32/8x8 1.2 -> 2.0 ms.
S2_MIN_CHANNELS = 64
S2_MIN_TILES = 64


def _s2_filter_axis():
    """``G (10, 4)``: the 2-tap filters of both phases along one axis
    (phase 0 taps W[3] and W[1], phase 1 W[2] and W[0]) at their 5
    points."""
    G = numpy.zeros((10, 4))
    G[:5, 3], G[:5, 1] = _G2[:, 0], _G2[:, 1]
    G[5:, 2], G[5:, 0] = _G2[:, 0], _G2[:, 1]
    return G


@functools.lru_cache(maxsize=None)
def _s2_kron(dtype):
    """``K (100, 16)``: the filter transform of a flattened 4x4 filter as
    one product, position ``10 pi + q`` from tap ``4 ky + kx``; made once
    per dtype, read-only."""
    G = _s2_filter_axis()
    K = numpy.kron(G, G).astype(dtype)
    K.flags.writeable = False
    return K


def s2_applies(x, out_c, ksize, stride, pad, dilate, outs, deconv=True):
    """Whether a stride-2 4x4 deconvolution of ``x`` (groups 1, pad 1, the
    output ``outs`` twice the input's size, or None) into ``out_c``
    channels runs here, or (``deconv`` false) the convolution of ``x`` that
    is its adjoint (``x`` of even size, the output half of it): the C loops built, a NumPy
    float32 or float64 image, at least :data:`S2_MIN_CHANNELS` channels
    each side and :data:`S2_MIN_TILES` 8x8 blocks of the larger side (see
    above)."""
    if not (conv_nd._loops is not None and type(x) is numpy.ndarray and
            x.ndim == 4 and x.dtype.char in 'fd' and x.dtype.isnative and
            tuple(ksize) == (4, 4) and tuple(stride) == (2, 2) and
            tuple(pad) == (1, 1) and tuple(dilate) == (1, 1) and
            min(x.shape[1], out_c) >= S2_MIN_CHANNELS):
        return False
    n, _, h, w = x.shape
    if deconv:
        if outs is not None and tuple(outs) != (2 * h, 2 * w):
            return False
    else:  # (either cover_all gives half an even size)
        if h % 2 or w % 2 or outs is not None and tuple(outs) != (
                h // 2, w // 2):
            return False
        h, w = h // 2, w // 2
    return n * -(-h // 4) * -(-w // 4) >= S2_MIN_TILES


def _s2_filters(W, dtype, out):
    """``out (100, c, o)`` takes the filter transforms of ``W (c, o, 4,
    4)``: one GEMM."""
    c, o = W.shape[:2]
    taps = W.reshape(c * o, 16)
    if taps.dtype != dtype:
        taps = taps.astype(dtype)
    _blas.matmul(_s2_kron(dtype), taps.T, out=out.reshape(100, c * o))
    return out


def _s2_chunks(n, c, o, h, w, dtype, held=None):
    """:func:`_chunked` for the 100 positions of the stride-2 windows of
    an ``(n, c, h, w)`` input, channels last (so that a tile's channels are
    one run for the C loops): ``(s, e, V (100, t, c), M (100, t, o), F)``,
    ``F (2, 100, c, o)`` two filter-sized arrays."""
    return _chunked(n, c, o, -(-h // 4) * -(-w // 4), 100, dtype, held,
                    last=True, extra=(2, 100, c, o))


def _s2_grad_w(dU, dtype):
    """``gW (c, o, 4, 4)`` from the products ``dU (100, c, o)``: the
    adjoint of :func:`_s2_filters`."""
    _, c, o = dU.shape
    return _blas.matmul(dU.reshape(100, -1).T, _s2_kron(dtype)).reshape(
        c, o, 4, 4)


def s2_deconv(x, W, b, keep=False):
    """``deconvolution_2d(x, W, b, stride=2, pad=1)`` for ``x (n, c, h,
    w)`` and ``W (c, o, 4, 4)`` that :func:`s2_applies` to.  With
    ``keep``, ``(y, held)``: the input's positions and the filter
    transforms for :func:`s2_conv` (a :class:`_Held`, or None where the
    batch took several chunks), instead of computing them again."""
    n, c, h, w = x.shape
    o = W.shape[1]
    y = numpy.empty((n, o, 2 * h, 2 * w), x.dtype)
    if b is not None:
        b = numpy.ascontiguousarray(b, x.dtype)
    held = None
    chunks = _s2_chunks(n, c, o, h, w, x.dtype)
    for s, e, V, M, F in chunks:
        U = F[0] if s else _s2_filters(W, x.dtype, F[0])
        conv_nd._loops.winograd_s2_input(V, x[s:e])
        _blas.run(_products(100, lambda p: numpy.matmul(
            V[p], U[p], out=M[p])))
        conv_nd._loops.winograd_s2_output(y[s:e], M, b)
        if keep and e - s == n:  # one chunk: its buffer stays with V, U
            held = _Held(V.base, x, W)  # (NumPy's base: the owner)
            chunks.close()
    return (y, held) if keep else y


def s2_conv(gy, W, x=None, held=None):
    """The adjoints of :func:`s2_deconv` for its filters ``W (c, o, 4, 4)``
    and output gradient ``gy (n, o, 2 h, 2 w)``: the input gradient ``gx
    (n, c, h, w)`` (the stride-2 4x4 convolution of ``gy`` with ``W``, out
    channels first, pad 1), and with its input ``x`` the filter gradient
    too, ``(gx, gW)``; ``held`` (from ``s2_deconv(x, W, ...,
    keep=True)``) has ``x``'s positions and ``W``'s transforms."""
    n, o, h2, w2 = gy.shape
    c = W.shape[0]
    dtype = gy.dtype
    if held is not None and not held.matches(x, W, 0, dtype):
        held = None
    gx = numpy.empty((n, c, h2 // 2, w2 // 2), dtype)
    for s, e, V, Mg, F in _s2_chunks(n, c, o, h2 // 2, w2 // 2, dtype,
                                     held):
        U = F[0] if s or held is not None else _s2_filters(W, dtype, F[0])
        conv_nd._loops.winograd_s2_grad(Mg, gy[s:e])
        if x is not None:
            if held is None:
                conv_nd._loops.winograd_s2_input(V, x[s:e])
            _sum_products(F[1], s, 100, lambda p, out: numpy.matmul(
                V[p].T, Mg[p], out=out))
            if e == n:
                gW = _s2_grad_w(F[1], dtype)  # (before the buffer goes back)
        # V's space takes the input gradient's positions
        _blas.run(_products(100, lambda p: numpy.matmul(
            Mg[p], U[p].T, out=V[p])))
        conv_nd._loops.winograd_s2_sum(gx[s:e], V)
    return gx if x is None else (gx, gW)


def s2_grad_w(x, gy):
    """The filter gradient ``(c, o, 4, 4)`` of :func:`s2_deconv` for its
    input ``x (n, c, h, w)`` and output gradient ``gy (n, o, 2 h, 2 w)``."""
    n, c, h, w = x.shape
    o = gy.shape[1]
    for s, e, V, Mg, F in _s2_chunks(n, c, o, h, w, x.dtype):
        conv_nd._loops.winograd_s2_grad(Mg, gy[s:e])
        conv_nd._loops.winograd_s2_input(V, x[s:e])
        _sum_products(F[1], s, 100, lambda p, out: numpy.matmul(
            V[p].T, Mg[p], out=out))
        if e == n:
            gW = _s2_grad_w(F[1], x.dtype)  # (before the buffer goes back)
    return gW
