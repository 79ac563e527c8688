"""The optional C loops (``chainer.utils._loops``) and the NumPy code they
stand in for give the same bytes.

The loops are built by ``pip install`` where a C compiler is at hand; the
tests of the loops themselves are skipped where they are not.  The
convolution tests run both ways (``conv_nd._loops`` set to None is the
NumPy-only build).
"""

import os

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import conv, conv_nd

loops = conv_nd._loops
needs_loops = pytest.mark.skipif(loops is None,
                                 reason='the C loops are not built')


def _strided_views(rng, dtype):
    """Pairs (source view, shape) with short runs, gaps, negative and zero
    strides, size-1 and empty axes."""
    base = (rng.randn(4, 5, 6, 7) * 10).astype(dtype)
    yield base[:, 1:4, ::-1, 2:6]
    yield base.transpose(2, 0, 3, 1)
    yield base[::2, :, 1:2, ::3]
    yield numpy.broadcast_to(base[0, 0, 0], (3, 7))
    yield base[:, :0]
    yield base[1, 2, 3, 4]  # 0-d


@needs_loops
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64, numpy.int8, numpy.int64,
                                   numpy.complex128, numpy.bool_])
def test_copyto_matches_numpy(dtype):
    rng = numpy.random.RandomState(0)
    for src in _strided_views(rng, dtype):
        src = numpy.asarray(src)
        out = numpy.empty(src.shape, src.dtype)
        loops.copyto(out, src)
        assert out.tobytes() == numpy.ascontiguousarray(src).tobytes()
        # into a strided destination too
        big = numpy.zeros(src.shape + (2,), src.dtype)
        loops.copyto(big[..., 1], src)
        assert big[..., 1].tobytes() == numpy.ascontiguousarray(
            src).tobytes()
        assert not big[..., 0].any()


@needs_loops
def test_copyto_of_windows():
    rng = numpy.random.RandomState(1)
    x = rng.randn(3, 4, 9, 8).astype(numpy.float32)
    view = conv_nd.im2col_view(x, (3, 2), (2, 1), (1, 1), 0, True, (1, 2))
    assert conv_nd.copy_array(view).tobytes() == view.copy().tobytes()


@needs_loops
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_add_is_numpys_addition(dtype):
    rng = numpy.random.RandomState(2)
    special = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0,
                           numpy.finfo(dtype).max, numpy.finfo(dtype).tiny
                           / 3], dtype)
    a = rng.randn(6, 7, 9).astype(dtype)
    b = rng.randn(6, 9, 7).astype(dtype).transpose(0, 2, 1)
    a.flat[:special.size] = special
    b.flat[:special.size] = special[::-1]
    expect = a.copy()
    expect += b
    got = a.copy()
    loops.add(got, b)
    assert got.tobytes() == expect.tobytes()
    # a strided destination
    expect = a.copy()
    expect[:, ::2, 1:] += b[:, ::2, 1:]
    got = a.copy()
    loops.add(got[:, ::2, 1:], b[:, ::2, 1:])
    assert got.tobytes() == expect.tobytes()


@needs_loops
def test_loops_refuse_bad_arguments():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='same shape'):
        loops.copyto(a, numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(ValueError, match='item size'):
        loops.copyto(a, numpy.zeros((2, 3), numpy.float64))
    with pytest.raises(TypeError, match='float32 or float64'):
        loops.add(a, numpy.zeros((2, 3), numpy.int32))
    with pytest.raises(TypeError, match='float32 or float64'):
        loops.add(numpy.zeros(3, numpy.float16), numpy.zeros(3, numpy.float16))
    with pytest.raises((TypeError, BufferError, ValueError)):
        ro = numpy.zeros((2, 3), numpy.float32)
        ro.flags.writeable = False
        loops.copyto(ro, a)


@pytest.fixture(params=['c-loops', 'numpy'])
def both_paths(request, monkeypatch):
    """Runs a test with the C loops (where built) and with NumPy alone."""
    if request.param == 'numpy':
        monkeypatch.setattr(conv_nd, '_loops', None)
    elif conv_nd._loops is None:
        pytest.skip('the C loops are not built')
    return request.param


@pytest.mark.parametrize('stride,pad,dilate', [
    ((1, 1), (0, 0), (1, 1)), ((2, 1), (1, 2), (1, 1)),
    ((1, 1), (1, 1), (2, 1)), ((3, 2), (0, 1), (1, 2))])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_col2im_same_bytes_both_ways(both_paths, stride, pad, dilate,
                                     dtype):
    rng = numpy.random.RandomState(4)
    col = rng.randn(2, 3, 3, 2, 4, 5).astype(dtype)
    h = (4 - 1) * stride[0] + (3 - 1) * dilate[0] + 1 - 2 * pad[0]
    w = (5 - 1) * stride[1] + (2 - 1) * dilate[1] + 1 - 2 * pad[1]
    got = conv.col2im_cpu(col, *stride, *pad, h, w, *dilate)
    # Chainer's col2im: one windowed addition per kernel offset, in order
    img = numpy.zeros((2, 3, h + 2 * pad[0] + stride[0] - 1,
                       w + 2 * pad[1] + stride[1] - 1), dtype)
    for j in range(3):
        for i in range(2):
            y0, x0 = j * dilate[0], i * dilate[1]
            img[:, :, y0:y0 + stride[0] * 4:stride[0],
                x0:x0 + stride[1] * 5:stride[1]] += col[:, :, j, i]
    expect = img[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + w]
    assert got.tobytes() == numpy.ascontiguousarray(expect).tobytes()


def _conv_step(dtype, groups=1):
    rng = numpy.random.RandomState(5)
    x = chainer.Variable((rng.randn(3, 4, 9, 8) * 0.3).astype(dtype))
    W = chainer.Variable((rng.randn(6, 4 // groups, 3, 2) * 0.3).astype(
        dtype))
    b = chainer.Variable(rng.randn(6).astype(dtype))
    y = F.convolution_2d(x, W, b, stride=(2, 1), pad=1, groups=groups)
    z = F.deconvolution_2d(y, W, None, stride=(2, 1), pad=1,
                           outsize=(9, 8), groups=groups)
    F.sum(z * z).backward()
    return [a.tobytes() for a in (y.array, z.array, x.grad, W.grad,
                                  b.grad)]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('groups', [1, 2])
def test_convolutions_same_bytes_both_ways(monkeypatch, dtype, groups):
    if conv_nd._loops is None:
        pytest.skip('the C loops are not built')
    with_loops = _conv_step(dtype, groups)
    monkeypatch.setattr(conv_nd, '_loops', None)
    assert _conv_step(dtype, groups) == with_loops


@pytest.fixture(params=[1, 3])
def threads(request):
    """Runs a test with the channel loops on one thread and on three."""
    if loops is None:
        pytest.skip('the C loops are not built')
    loops.set_threads(request.param)
    yield request.param
    loops.set_threads(conv_nd.DEFAULT_THREADS)


_GEOMETRIES = [  # (b, c, h, w), (kh, kw), (sy, sx, ph, pw, dy, dx), cover_all
    ((2, 3, 7, 6), (3, 2), (1, 1, 1, 0, 1, 1), False),
    ((3, 2, 9, 8), (3, 3), (2, 2, 1, 1, 1, 1), True),
    ((1, 4, 5, 5), (2, 3), (2, 1, 3, 2, 2, 1), False),
    ((2, 2, 6, 7), (3, 3), (1, 3, 0, 2, 1, 2), True),
    ((1, 1, 4, 4), (5, 5), (1, 1, 2, 2, 1, 1), False),
    ((4, 64, 8, 8), (3, 3), (1, 1, 1, 1, 1, 1), False),  # split channels
]


@pytest.mark.parametrize('shape,ksize,geom,cover_all', _GEOMETRIES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_im2col_2d_is_the_padded_window_copy(threads, shape, ksize, geom,
                                             cover_all, dtype):
    x = numpy.random.RandomState(6).randn(*shape).astype(dtype)
    x = x[:, :, :, ::-1]  # a strided image
    view = conv_nd.im2col_view(x, ksize, geom[:2], geom[2:4], 0, cover_all,
                               geom[4:])
    want = numpy.ascontiguousarray(view.transpose(1, 2, 3, 0, 4, 5))
    got = numpy.full_like(want, numpy.nan)
    loops.im2col_2d(got, x, geom)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize('shape,ksize,geom,cover_all', _GEOMETRIES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_col2im_2d_is_the_windowed_sum(threads, shape, ksize, geom,
                                       cover_all, dtype):
    x = numpy.zeros(shape, dtype)
    outs = conv_nd.conv_outs(shape[2:], ksize, geom[:2], geom[2:4],
                             cover_all, geom[4:])
    rng = numpy.random.RandomState(7)
    col = rng.randn(shape[1], *ksize, shape[0], *outs).astype(dtype)
    col.flat[::5] = -0.0
    want = conv_nd.col2im_add(numpy.moveaxis(col, 3, 0), geom[:2],
                              geom[2:4], shape[2:], geom[4:])
    got = numpy.full_like(x, numpy.nan)
    loops.col2im_2d(got, col, geom)
    assert got.tobytes() == numpy.ascontiguousarray(want).tobytes()


def test_batch_normalization_same_bytes_on_any_threads():
    if loops is None:
        pytest.skip('the C loops are not built')
    rng = numpy.random.RandomState(8)
    x = rng.randn(4, 64, 9, 9).astype(numpy.float32)
    g, b = rng.rand(64).astype(numpy.float32), rng.randn(64).astype(
        numpy.float32)
    gy = rng.randn(*x.shape).astype(numpy.float32)
    got = []
    for t in (1, 2, 5):
        loops.set_threads(t)
        v = chainer.Variable(x)
        y = F.batch_normalization(v, g, b)
        y.grad = gy
        y.backward()
        got.append((y.array.tobytes(), v.grad.tobytes()))
    loops.set_threads(conv_nd.DEFAULT_THREADS)
    assert got[0] == got[1] == got[2]


@needs_loops
def test_window_loops_refuse_bad_arguments():
    x = numpy.zeros((2, 3, 4, 4), numpy.float32)
    col = numpy.zeros((3, 2, 2, 2, 3, 3), numpy.float32)
    geom = (1, 1, 0, 0, 1, 1)
    with pytest.raises(ValueError, match='columns'):
        loops.im2col_2d(col[:2], x, geom)
    with pytest.raises(ValueError, match='columns'):
        loops.im2col_2d(col, x, (0, 1, 0, 0, 1, 1))
    with pytest.raises(ValueError, match='4-d image'):
        loops.im2col_2d(col, x[0], geom)
    with pytest.raises(TypeError, match='float32 or float64'):
        loops.col2im_2d(x.astype(numpy.float16), col.astype(numpy.float16),
                        geom)
    with pytest.raises((TypeError, BufferError, ValueError)):
        loops.col2im_2d(x[:, :, :, ::2], col, geom)  # not C-contiguous
    with pytest.raises(TypeError, match='float32 or float64'):
        loops.bn_forward(numpy.zeros(3, numpy.int32), numpy.zeros(
            3, numpy.int32), 1, 1, 3, numpy.ones(1), numpy.ones(1), 1e-5,
            numpy.ones(1), numpy.ones(1))


# --- the thin GEMMs of F.linear (linear_nt, linear_nn) ---------------------

def _bound(a, b):
    """A float32 rounding bound for the products a @ b (float64 operands):
    k roundings of at most the sum of the magnitudes each."""
    return 4 * a.shape[1] * 2.0 ** -24 * (abs(a) @ abs(b)) + 1e-30


def _nt(x, W, b, threads=1):
    (m, k), n = x.shape, len(W)
    y = numpy.full((m, n), numpy.nan, numpy.float32)
    loops.linear_nt(y, x, W, b, m, n, k, threads)
    return y


def _nn(gy, W, threads=1):
    (m, n), k = gy.shape, W.shape[1]
    gx = numpy.full((m, k), numpy.nan, numpy.float32)
    loops.linear_nn(gx, gy, W, m, n, k, threads)
    return gx


@needs_loops
@pytest.mark.parametrize('n, k', [(1, 1), (3, 7), (5, 15), (17, 16),
                                  (4, 17), (67, 31), (64, 33), (13, 200),
                                  (30, 203)])
def test_linear_gemms_match_float64(n, k):
    # every m from 1 to 33 (the tiles are 4 rows; k's tail overlaps the
    # vector before it), with a bias and without
    rng = numpy.random.RandomState(n * 1000 + k)
    W = rng.randn(n, k).astype(numpy.float32)
    b = rng.randn(n).astype(numpy.float32)
    W64 = W.astype(numpy.float64)
    for m in range(1, 34):
        x = rng.randn(m, k).astype(numpy.float32)
        gy = rng.randn(m, n).astype(numpy.float32)
        x64, gy64 = x.astype(numpy.float64), gy.astype(numpy.float64)
        bound = _bound(x64, W64.T)
        for bias in (b, None):
            ref = x64 @ W64.T + (0 if bias is None else bias)
            y = _nt(x, W, bias)
            assert numpy.all(abs(y - ref) <= bound + 2.0 ** -24 * abs(ref)), \
                (m, n, k, bias is None)
        gx = _nn(gy, W)
        assert numpy.all(abs(gx - gy64 @ W64) <= _bound(gy64, W64)), (m, n, k)


@needs_loops
def test_linear_gemms_empty_and_zero_sizes():
    W = numpy.ones((5, 20), numpy.float32)
    assert _nt(numpy.ones((0, 20), numpy.float32), W, None).shape == (0, 5)
    assert not _nt(numpy.ones((3, 0), numpy.float32),
                   numpy.ones((5, 0), numpy.float32), None).any()
    b = numpy.arange(5, dtype=numpy.float32)
    numpy.testing.assert_array_equal(
        _nt(numpy.ones((2, 0), numpy.float32),
            numpy.ones((5, 0), numpy.float32), b), [b, b])
    # an empty sum over n is zeros
    assert not _nn(numpy.ones((3, 0), numpy.float32),
                   numpy.ones((0, 20), numpy.float32)).any()


@needs_loops
@pytest.mark.parametrize('m, n, k', [(20, 5000, 200), (7, 1001, 37),
                                     (33, 3000, 16)])
def test_linear_gemms_same_bits_on_any_threads(m, n, k):
    # the threads take chunks of W's rows (nt) and parts of them (nn) in
    # whatever order they come; each output element is summed the same way
    rng = numpy.random.RandomState(1)
    x = rng.randn(m, k).astype(numpy.float32)
    W = rng.randn(n, k).astype(numpy.float32)
    b = rng.randn(n).astype(numpy.float32)
    gy = rng.randn(m, n).astype(numpy.float32)
    ys = [_nt(x, W, b, t).tobytes() for t in (1, 2, 3, 2, 16)]
    gxs = [_nn(gy, W, t).tobytes() for t in (1, 2, 3, 2, 16)]
    assert len(set(ys)) == 1 and len(set(gxs)) == 1
    # and they are the product (the threads did not skip a chunk)
    x64, W64 = x.astype(numpy.float64), W.astype(numpy.float64)
    y = numpy.frombuffer(ys[0], numpy.float32).reshape(m, n)
    assert numpy.all(abs(y - (x64 @ W64.T + b)) <=
                     _bound(x64, W64.T) + 1e-6 * abs(b))
    gx = numpy.frombuffer(gxs[0], numpy.float32).reshape(m, k)
    gy64 = gy.astype(numpy.float64)
    assert numpy.all(abs(gx - gy64 @ W64) <= _bound(gy64, W64))


@needs_loops
def test_linear_nt_tail_adds_nothing_for_overlapped_items():
    # k = 200 ends with a vector over items 184..199, of which 184..191
    # were summed already: an inf or a nan there must count once, and
    # the overlap must not turn inf * 0 into nan
    x = numpy.ones((3, 200), numpy.float32)
    W = numpy.zeros((6, 200), numpy.float32)
    W[0, 185] = numpy.inf
    W[1, 190] = -numpy.inf
    W[2, 186] = numpy.nan
    W[3, 195] = numpy.inf
    W[4, 191] = 1
    W[5] = 0.5
    y = _nt(x, W, None)
    numpy.testing.assert_array_equal(
        y, numpy.tile([numpy.inf, -numpy.inf, numpy.nan, numpy.inf, 1, 100],
                      (3, 1)))
    x[:, 187] = numpy.inf  # times zeros: nan where W has a 0 there
    y = _nt(x, W[4:], None)
    assert numpy.isnan(y[:, 0]).all() and (y[:, 1] == numpy.inf).all()


@needs_loops
def test_linear_gemms_refuse_bad_arguments():
    x = numpy.ones((2, 20), numpy.float32)
    W = numpy.ones((5, 20), numpy.float32)
    y = numpy.empty((2, 5), numpy.float32)
    with pytest.raises(TypeError, match='float32'):
        loops.linear_nt(y, x.astype(numpy.float64), W, None, 2, 5, 20, 1)
    with pytest.raises(TypeError, match='linear_nt b'):
        loops.linear_nt(y, x, W, numpy.ones(4, numpy.float32), 2, 5, 20, 1)
    with pytest.raises(TypeError, match='linear_nt y'):
        loops.linear_nt(y[:, :4].copy(), x, W, None, 2, 5, 20, 1)
    with pytest.raises((TypeError, BufferError, ValueError)):
        loops.linear_nt(y, x[:, ::2], W, None, 2, 5, 10, 1)
    with pytest.raises(ValueError, match='negative'):
        loops.linear_nt(y, x, W, None, -2, 5, 20, 1)
    with pytest.raises(TypeError, match='linear_nn W'):
        loops.linear_nn(numpy.empty((2, 20), numpy.float32),
                        numpy.ones((2, 5), numpy.float32), W[:4], 2, 5, 20,
                        1)
    assert loops.linear_isa() in ('avx512', 'vector', 'plain')


# --- the tn GEMM (a^T b: weight gradients), at once and in the background --

def _tn(a, b, start=False):
    (m, ka), n = a.shape, b.shape[1]
    out = numpy.full((ka, n), numpy.nan, numpy.float32)
    if start:
        assert loops.gemm_tn_start(out, a, b, m, ka, n) is True
    else:
        assert loops.gemm_tn(out, a, b, m, ka, n) is None
    return out


@needs_loops
@pytest.mark.parametrize('ka, n', [(1, 1), (3, 7), (5, 16), (4, 17),
                                   (13, 31), (64, 64), (9, 100)])
def test_gemm_tn_matches_float64(ka, n):
    # every m from 0 to 49; n's last vector overlaps the one before
    rng = numpy.random.RandomState(ka * 1000 + n)
    for m in range(0, 50):
        a = rng.randn(m, ka).astype(numpy.float32)
        b = rng.randn(m, n).astype(numpy.float32)
        a64, b64 = a.astype(numpy.float64), b.astype(numpy.float64)
        ref = a64.T @ b64
        bound = 4 * max(m, 1) * 2.0 ** -24 * (abs(a64.T) @ abs(b64)) + 1e-30
        out = _tn(a, b)
        assert numpy.all(abs(out - ref) <= bound), (m, ka, n)
        if m == 0:
            assert not out.any()


@needs_loops
def test_gemm_tn_in_the_background_gives_the_same_bits():
    # more products than the queue holds (the rest computed at once), then
    # one wait: each as gemm_tn computes it, whichever thread ran it
    rng = numpy.random.RandomState(0)
    pairs = [(rng.randn(32, 64).astype(numpy.float32),
              rng.randn(32, 48).astype(numpy.float32)) for _ in range(300)]
    outs = [_tn(a, b, start=True) for a, b in pairs]
    del pairs[5:]  # (the queue holds its arrays until the wait)
    loops.gemm_tn_wait()
    loops.gemm_tn_wait()  # (nothing left: returns at once)
    rng = numpy.random.RandomState(0)
    for out in outs:
        a = rng.randn(32, 64).astype(numpy.float32)
        b = rng.randn(32, 48).astype(numpy.float32)
        assert out.tobytes() == _tn(a, b).tobytes()


@needs_loops
def test_gemm_tn_refuses_bad_arguments():
    a = numpy.ones((4, 3), numpy.float32)
    b = numpy.ones((4, 20), numpy.float32)
    out = numpy.empty((3, 20), numpy.float32)
    with pytest.raises(TypeError, match='gemm_tn a'):
        loops.gemm_tn(out, a.astype(numpy.float64), b, 4, 3, 20)
    with pytest.raises(TypeError, match='gemm_tn out'):
        loops.gemm_tn(out[:2].copy(), a, b, 4, 3, 20)
    with pytest.raises(ValueError):
        loops.gemm_tn(out, a, numpy.ones((20, 4), numpy.float32).T, 4, 3, 20)
    with pytest.raises(ValueError, match='negative'):
        loops.gemm_tn(out, a, b, -4, 3, 20)
    # soft: False instead, and nothing written
    out[...] = 7
    assert loops.gemm_tn(out, a.T.copy().T, b, 4, 3, 20, True) is False
    assert loops.gemm_tn_start(out, a, b[:, ::2], 4, 3, 10) is False
    assert (out == 7).all()
    assert loops.gemm_tn(out, a, b, 4, 3, 20, True) is True
    numpy.testing.assert_array_equal(out, numpy.full((3, 20), 4))
    # the other loops' soft mode
    gx = numpy.full((4, 20), 7, numpy.float32)
    assert loops.tanh_grad(gx, b, b[:, ::-1], 80, True) is False
    assert loops.tanh_grad(gx, b, b, 80, True) is True
    assert not gx.any()
    y = numpy.full((4, 3), 7, numpy.float32)
    assert loops.linear_nt(y, b[:, ::-1], out, None, 4, 3, 20, 1,
                           True) is False
    assert (y == 7).all()
    assert loops.linear_nt(y, b, out, None, 4, 3, 20, 1, True) is True
    numpy.testing.assert_array_equal(y, numpy.full((4, 3), 80))


@needs_loops
@pytest.mark.skipif(not hasattr(os, 'fork'), reason='no fork')
def test_gemm_tn_queue_starts_empty_in_a_forked_child():
    # the parent's helper does not run in the child, and a product it had
    # begun would never be done there: the child's wait must not hang
    rng = numpy.random.RandomState(0)
    a = rng.randn(32, 64).astype(numpy.float32)
    b = rng.randn(32, 64).astype(numpy.float32)
    outs = [_tn(a, b, start=True) for _ in range(100)]
    pid = os.fork()
    if pid == 0:  # the child: a product of its own, started and joined
        ok = False
        try:
            out = _tn(a, b, start=True)
            loops.gemm_tn_wait()
            ok = out.tobytes() == _tn(a, b).tobytes()
        finally:
            os._exit(0 if ok else 3)
    loops.gemm_tn_wait()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    want = _tn(a, b).tobytes()
    assert all(out.tobytes() == want for out in outs)
