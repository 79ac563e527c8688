"""The optional C loops (``chainer.utils._loops``) and the NumPy code they
stand in for give the same bytes.

The loops are built by ``pip install`` where a C compiler is at hand; the
tests of the loops themselves are skipped where they are not.  The
convolution tests run both ways (``conv_nd._loops`` set to None is the
NumPy-only build).
"""

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
