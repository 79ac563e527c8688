"""The fast CPU paths of the convolution family.

The convolutions run one GEMM per chunk of samples instead of Chainer's
single ``numpy.tensordot``, so their float32 bits may differ from
Chainer's: they are held to a tolerance against a float64 product, and to
the same bytes from run to run.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import _conv
from chainer.functions.pooling import _pooling
from chainer.utils import conv_nd
from chainer.utils.conv_nd import im2col_view


def _rng():
    return numpy.random.RandomState(3)


def _deconv64(x, W, stride, outsize):
    """A deconvolution in float64: tensordot, then window sums."""
    col = numpy.tensordot(W.astype(numpy.float64), x.astype(numpy.float64),
                          (0, 1))  # (out_c, kh, kw, n, h, w)
    col = numpy.moveaxis(col, 3, 0)
    n, c, kh, kw, h, w = col.shape
    sy, sx = stride
    H, Wd = outsize
    img = numpy.zeros((n, c, H + sy - 1, Wd + sx - 1))
    for j in range(kh):
        for i in range(kw):
            img[:, :, j:j + sy * h:sy, i:i + sx * w:sx] += col[:, :, j, i]
    return img[:, :, :H, :Wd]


@pytest.mark.parametrize('native', [True, False])
@pytest.mark.parametrize('chunk_bytes', [1 << 23, 50000, 1])
def test_deconv_forward_close_to_float64(monkeypatch, chunk_bytes, native):
    # All samples in one GEMM, several (a partial last chunk too), one;
    # with the C loops and with NumPy alone.
    monkeypatch.setattr(_conv, '_CHUNK_BYTES', chunk_bytes)
    if not native:
        monkeypatch.setattr(conv_nd, '_loops', None)
    rng = _rng()
    x = rng.randn(37, 24, 6, 6).astype(numpy.float32)
    W = rng.randn(24, 10, 3, 3).astype(numpy.float32)
    for stride, outsize in (((1, 1), (8, 8)), ((2, 2), (13, 13))):
        y = _conv.deconv_forward(x, W, None, stride, (0, 0), outsize,
                                 (1, 1), 1)
        assert y.flags.c_contiguous and y.dtype == numpy.float32
        numpy.testing.assert_allclose(y, _deconv64(x, W, stride, outsize),
                                      rtol=1e-5, atol=1e-4)
        again = _conv.deconv_forward(x, W, None, stride, (0, 0), outsize,
                                     (1, 1), 1)
        assert again.tobytes() == y.tobytes()


@pytest.mark.parametrize('chunk_bytes', [1 << 23, 50000, 1])
def test_conv_forward_and_grad_w_close_to_float64(monkeypatch, chunk_bytes):
    monkeypatch.setattr(_conv, '_CHUNK_BYTES', chunk_bytes)
    rng = _rng()
    x = rng.randn(37, 5, 7, 6).astype(numpy.float32)
    W = rng.randn(4, 5, 3, 2).astype(numpy.float32)
    view = im2col_view(x.astype(numpy.float64), (3, 2), (2, 1), (1, 0))
    y = _conv.conv_forward(x, W, None, (2, 1), (1, 0), (1, 1), 1, False)
    want = numpy.einsum('ncklij,ockl->noij', view, W.astype(numpy.float64))
    # one GEMM for the batch gives a channels-last y, chunks an NCHW one
    layout = numpy.moveaxis(y, 1, -1) if chunk_bytes > 50000 else y
    assert layout.flags.c_contiguous and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-4)
    gy = rng.randn(*y.shape).astype(numpy.float32)
    gW = _conv.conv_grad_w(x, gy, (3, 2), (2, 1), (1, 0), (1, 1), 1)
    want = numpy.einsum('ncklij,noij->ockl', view, gy.astype(numpy.float64))
    assert gW.flags.c_contiguous and gW.dtype == numpy.float32
    numpy.testing.assert_allclose(gW, want, rtol=1e-5, atol=1e-3)
    again = _conv.conv_grad_w(x, gy, (3, 2), (2, 1), (1, 0), (1, 1), 1)
    assert again.tobytes() == gW.tobytes()


def test_max_pool_channels_last_same_as_contiguous():
    rng = _rng()
    a = rng.randint(-2, 3, size=(3, 4, 9, 8)).astype(numpy.float32)
    a[a == 0] = -0.0
    a[0, 0, 0, 0] = numpy.nan
    cl = numpy.ascontiguousarray(a.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    assert _pooling._channels_last(cl)
    for ksize, stride, pad in (((2, 2), (2, 2), (0, 0)),
                               ((3, 3), (2, 2), (1, 1))):
        outs = _pooling.pool_outs((9, 8), ksize, stride, pad, True)
        y1, i1 = _pooling.max_pool(a, ksize, stride, pad, outs)
        y2, i2 = _pooling.max_pool(cl, ksize, stride, pad, outs)
        assert y2.flags.c_contiguous and i2.flags.c_contiguous
        assert y1.tobytes() == y2.tobytes()
        assert i1.tobytes() == i2.tobytes()


def test_relu_grad_mixed_layout_keeps_layout_and_bits():
    rng = _rng()
    x = rng.randn(2, 3, 4, 5).astype(numpy.float32)
    x_cl = numpy.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(
        0, 3, 1, 2)
    gy = rng.randn(2, 3, 4, 5).astype(numpy.float32)
    xv = chainer.Variable(x_cl)
    y = F.relu(xv)
    y.grad = gy
    y.backward()
    mask = x_cl > 0
    expect = gy * mask  # numpy's own product of the mixed layouts
    from chainer.functions.activation.relu import ReLUGrad
    got, = ReLUGrad(mask).forward((gy,))
    assert got.strides == expect.strides
    assert got.tobytes() == expect.tobytes()
    assert xv.grad.tobytes() == expect.tobytes()


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape,ksize', [((3, 2, 7, 6), (3, 2)), ((2, 1, 5, 5), (5, 1)),
                                         ((1, 2, 4, 3), (2, 3)), ((0, 2, 4, 4), (2, 2))])
@pytest.mark.parametrize('native', [True, False])
def test_window_copy_equals_plain_copy(monkeypatch, dtype, shape, ksize,
                                       native):
    # The windows copied by the C loops (or by NumPy) are the plain copy.
    if not native:
        monkeypatch.setattr(conv_nd, '_loops', None)
    x = numpy.random.RandomState(0).randn(*shape).astype(dtype)
    x.flat[:1] = numpy.nan
    view = im2col_view(x, ksize, (1, 1), (0, 0)).transpose(1, 2, 3, 0, 4, 5)
    got = numpy.empty(view.shape, dtype)
    _conv._copyto(got, view)
    assert got.tobytes() == numpy.ascontiguousarray(view).tobytes()


def _windowed_col2im(col, pad, dims, first):
    """col2im with unit strides as plain per-offset window additions onto a
    zero image (the order every image element must see)."""
    nd = len(dims)
    ksize = col.shape[first:first + nd]
    outs = col.shape[first + nd:first + 2 * nd]
    size = tuple(max(d + 2 * p, o + k - 1)
                 for d, p, o, k in zip(dims, pad, outs, ksize))
    img = numpy.zeros(col.shape[:first] + size + col.shape[first + 2 * nd:],
                      col.dtype)
    lead = (slice(None),) * first
    for offset in numpy.ndindex(*ksize):
        index = lead + tuple(slice(i, i + o) for i, o in zip(offset, outs))
        img[index] += col[lead + offset]
    return img[lead + tuple(slice(p, p + d) for p, d in zip(pad, dims))]


def _special_values(a):
    # Signed zeros (0.0 + -0.0 is +0.0), NaN, infinities and subnormals.
    flat = a.reshape(-1)
    specials = numpy.array([-0.0, 0.0, numpy.nan, numpy.inf, -numpy.inf,
                            numpy.finfo(a.dtype).tiny / 4], a.dtype)
    flat[::7][:len(specials)] = specials[:len(flat[::7])]
    flat[1::5] = -0.0
    return a


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape,dims,pad,first,batch_last', [
    ((3, 5, 5, 4, 4, 6), (8, 8), (0, 0), 1, True),     # deconv's layout
    ((4, 3, 2, 5, 6, 3), (7, 7), (1, 2), 1, True),     # padded, uneven
    ((2, 3, 3, 3, 4, 5), (6, 7), (0, 0), 2, False),    # batch-first
    ((2, 2, 3, 4, 5), (7,), (1,), 2, False),           # 1-d
    ((2, 2, 2, 2, 3, 3, 3, 2), (4, 4, 4), (0, 0, 0), 1, True),  # 3-d
    ((1, 1, 1, 3, 3, 1), (3, 3), (0, 0), 1, True),     # 1x1 kernel
])
def test_col2im_flat_path_bitwise_equals_windowed_sums(
        dtype, shape, dims, pad, first, batch_last):
    rng = _rng()
    col = _special_values(rng.randn(*shape).astype(dtype))
    if batch_last:
        # The strided view deconv_forward passes (batch axis moved last).
        col = numpy.moveaxis(numpy.ascontiguousarray(
            numpy.moveaxis(col, -1, first + 2 * len(dims) - len(dims))),
            first + len(dims), -1)
    nd = len(dims)
    assert conv_nd._flat_windows_pay(numpy, col, (1,) * nd, (1,) * nd)
    got = conv_nd.col2im_add(col, (1,) * nd, pad, dims, first=first)
    want = _windowed_col2im(col, pad, dims, first)
    assert got.shape == want.shape and got.strides == want.strides
    assert got.tobytes() == numpy.ascontiguousarray(want).tobytes()


def test_col2im_flat_path_keeps_positive_zero_sums():
    # Every window value is -0.0: Chainer's sums start from +0.0, so the
    # image is +0.0 everywhere (a copy of the first offset would keep -0.0).
    col = numpy.full((2, 3, 3, 4, 4, 5), -0.0, numpy.float32)
    got = conv_nd.col2im_add(col, (1, 1), (0, 0), (6, 6), first=1)
    assert not numpy.signbit(got).any()


def test_col2im_strided_keeps_windowed_path():
    col = numpy.ones((1, 3, 3, 2, 2, 2), numpy.float32)
    assert not conv_nd._flat_windows_pay(numpy, col, (2, 1), (1, 1))
    assert not conv_nd._flat_windows_pay(numpy, col, (1, 1), (1, 2))
    got = conv_nd.col2im_add(col, (2, 2), (0, 0), (5, 5), first=1)
    assert got[:, 1, 1].tolist() == [[1.0, 1.0]]
    assert got[:, 2, 2].tolist() == [[4.0, 4.0]]


@pytest.mark.parametrize('n,out_c', [(64, 20), (3, 5), (8, 1)])
def test_conv_forward_bias_is_added_after_the_product(n, out_c):
    rng = _rng()
    x = rng.randn(n, 3, 6, 6).astype(numpy.float32)
    W = rng.randn(out_c, 3, 3, 3).astype(numpy.float32)
    b = rng.randn(out_c).astype(numpy.float32)
    b[0] = -0.0
    got = _conv.conv_forward(x, W, b, (1, 1), (0, 0), (1, 1), 1, False)
    plain = _conv.conv_forward(x, W, None, (1, 1), (0, 0), (1, 1), 1, False)
    want = plain + b.reshape(1, -1, 1, 1)
    assert got.tobytes() == numpy.ascontiguousarray(want).tobytes()
    assert got.strides == plain.strides


def test_chunks_are_even_and_buffers_are_reused(monkeypatch):
    monkeypatch.setattr(_conv, '_CHUNK_BYTES', 1 << 25)
    assert _conv._chunk(numpy, 32, 64 * 9 * 1024 * 4) == 11  # 11, 11, 10
    assert _conv._chunk(numpy, 16, 1 << 21) == 16
    assert _conv._chunk(numpy, 5, 1 << 26) == 1
    assert _conv._chunk(numpy, 32, 1 << 20, 1 << 26) == 32  # (a limit)
    assert _conv._chunk(numpy, 32, 1 << 20, 1 << 24) == 16
    monkeypatch.setattr(_conv, '_BUFFERS', [])
    buf = _conv._buffer(numpy, 100, numpy.float32)
    _conv._give_back(buf)
    again = _conv._buffer(numpy, 50, numpy.float32)
    assert again.base is buf.base or again.base is buf
    assert _conv._buffer(numpy, 10, numpy.float32).base is not buf
