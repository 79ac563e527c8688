"""Winograd stride-2 4x4 deconvolutions with pad 1 and their adjoint
convolutions (chainer.functions.connection._winograd, the s2_ section).

Results are held to float64 references summed tap by tap, with a tolerance
relative to the same sums over absolute values (the largest over each
image plane, or each filter): the transforms (8/3, 1/6, 1/8) cancel terms
exactly in exact arithmetic and leave rounding errors of a few float32
epsilons of the magnitudes around an element.  Measured worst cases are
about 2e-6 (float32) and 4e-15 (float64) of the largest output; the bounds
allow 3e-5 and 1e-12.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.functions.connection import _winograd
from chainer.utils import conv_nd

pytestmark = pytest.mark.skipif(conv_nd._loops is None,
                                reason='the C loops are not built')

RTOL = {numpy.float32: 3e-5, numpy.float64: 1e-12}
# (n, c, o, h, w): 4x4-divisible, ragged, a single tile, wide
SIZES = [(2, 3, 5, 8, 8), (1, 4, 2, 5, 7), (3, 2, 3, 1, 1), (2, 3, 4, 4, 13)]


def _rng():
    return numpy.random.RandomState(11)


def _deconv64(x, W, b=None):
    """``y[n, o, 2 i + ky - 1, 2 j + kx - 1] += x[n, c, i, j] W[c, o, ky,
    kx]``, in float64."""
    n, _, h, w = x.shape
    y = numpy.zeros((n, W.shape[1], 2 * h + 2, 2 * w + 2))
    for ky in range(4):
        for kx in range(4):
            y[:, :, ky:ky + 2 * h:2, kx:kx + 2 * w:2] += numpy.einsum(
                'nchw,co->nohw', x.astype(numpy.float64),
                W[:, :, ky, kx].astype(numpy.float64))
    y = y[:, :, 1:2 * h + 1, 1:2 * w + 1]
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def _conv64(gy, W):
    """The adjoint of :func:`_deconv64` in ``x``."""
    n, _, h2, w2 = gy.shape
    g = numpy.zeros((n, gy.shape[1], h2 + 2, w2 + 2))
    g[:, :, 1:h2 + 1, 1:w2 + 1] = gy
    out = 0
    for ky in range(4):
        for kx in range(4):
            out = out + numpy.einsum(
                'nohw,co->nchw', g[:, :, ky:ky + h2:2, kx:kx + w2:2],
                W[:, :, ky, kx].astype(numpy.float64))
    return out


def _grad_w64(x, gy):
    n, _, h, w = x.shape
    g = numpy.zeros((n, gy.shape[1], 2 * h + 2, 2 * w + 2))
    g[:, :, 1:2 * h + 1, 1:2 * w + 1] = gy
    gW = numpy.empty((x.shape[1], gy.shape[1], 4, 4))
    for ky in range(4):
        for kx in range(4):
            gW[:, :, ky, kx] = numpy.einsum(
                'nchw,nohw->co', x.astype(numpy.float64),
                g[:, :, ky:ky + 2 * h:2, kx:kx + 2 * w:2])
    return gW


def _check(got, want, scale, dtype):
    assert got.dtype == dtype and got.shape == want.shape
    err = numpy.abs(got - want)
    axes = (2, 3) if scale.ndim == 4 else ()
    bound = RTOL[dtype] * (scale.max(axis=(2, 3), keepdims=True)
                           if axes else scale.max()) + 1e-30
    assert (err <= bound).all(), (err / bound).max()


def _data(dtype, n, c, o, h, w):
    rng = _rng()
    x = rng.randn(n, c, h, w).astype(dtype)
    W = rng.randn(c, o, 4, 4).astype(dtype)
    b = rng.randn(o).astype(dtype)
    gy = rng.randn(n, o, 2 * h, 2 * w).astype(dtype)
    return x, W, b, gy


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('n,c,o,h,w', SIZES)
def test_deconv_and_adjoints(dtype, n, c, o, h, w):
    x, W, b, gy = _data(dtype, n, c, o, h, w)
    _check(_winograd.s2_deconv(x, W, b), _deconv64(x, W, b),
           _deconv64(abs(x), abs(W), abs(b)), dtype)
    gx, gW = _winograd.s2_conv(gy, W, x)
    _check(gx, _conv64(gy, W), _conv64(abs(gy), abs(W)), dtype)
    _check(gW, _grad_w64(x, gy), _grad_w64(abs(x), abs(gy)), dtype)
    # the input gradient alone, and the filter gradient alone, are the same
    numpy.testing.assert_array_equal(_winograd.s2_conv(gy, W), gx)
    numpy.testing.assert_array_equal(_winograd.s2_grad_w(x, gy), gW)


def test_held_positions_and_chunks(monkeypatch):
    """The backward from what the forward kept, and from chunks of one
    sample, give the same bits as the backward on its own."""
    x, W, b, gy = _data(numpy.float32, 3, 4, 5, 8, 6)
    y, held = _winograd.s2_deconv(x, W, b, keep=True)
    assert held is not None
    numpy.testing.assert_array_equal(y, _winograd.s2_deconv(x, W, b))
    gx, gW = _winograd.s2_conv(gy, W, x)
    kept = _winograd.s2_conv(gy, W, x, held)
    numpy.testing.assert_array_equal(kept[0], gx)
    numpy.testing.assert_array_equal(kept[1], gW)
    # held for another x is not used (and its buffer goes back)
    _, held = _winograd.s2_deconv(x, W, b, keep=True)
    other = _winograd.s2_conv(gy, W, x.copy(), held)
    numpy.testing.assert_array_equal(other[1], gW)
    monkeypatch.setattr(_winograd, 'CHUNK_BYTES', 1)
    y2, held = _winograd.s2_deconv(x, W, b, keep=True)
    assert held is None  # (3 chunks)
    numpy.testing.assert_allclose(y2, y, rtol=0, atol=1e-5)
    gx2, gW2 = _winograd.s2_conv(gy, W, x)
    numpy.testing.assert_allclose(gx2, gx, rtol=0, atol=1e-5)
    numpy.testing.assert_allclose(gW2, gW, rtol=0, atol=1e-4)


def _everywhere(monkeypatch):
    monkeypatch.setattr(_winograd, 'S2_MIN_CHANNELS', 1)
    monkeypatch.setattr(_winograd, 'S2_MIN_TILES', 1)


def _spy(monkeypatch):
    calls = []
    for name in ('s2_deconv', 's2_conv', 's2_grad_w'):
        def wrapped(*args, _f=getattr(_winograd, name), _name=name, **kw):
            calls.append((_name, any(a is not None and
                                     isinstance(a, _winograd._Held)
                                     for a in args)))
            return _f(*args, **kw)
        monkeypatch.setattr(_winograd, name, wrapped)
    return calls


def test_check_backward_deconvolution(monkeypatch):
    _everywhere(monkeypatch)
    calls = _spy(monkeypatch)
    x, W, b, gy = _data(numpy.float64, 2, 3, 2, 3, 5)
    ggs = tuple(_rng().randn(*a.shape) for a in (x, W, b))

    def f(x, W, b):
        return F.deconvolution_2d(x, W, b, stride=2, pad=1)
    gradient_check.check_backward(f, (x, W, b), gy, dtype=numpy.float64,
                                  atol=1e-6, rtol=1e-6)
    gradient_check.check_double_backward(f, (x, W, b), gy, ggs,
                                         dtype=numpy.float64, atol=1e-6,
                                         rtol=1e-6)
    names = {name for name, _ in calls}
    assert names == {'s2_deconv', 's2_conv', 's2_grad_w'}
    assert ('s2_conv', True) in calls  # the forward's positions reused


def test_check_backward_convolution(monkeypatch):
    """The stride-2 4x4 convolution (a DCGAN discriminator's) runs as the
    adjoint, its input gradient as the deconvolution."""
    _everywhere(monkeypatch)
    calls = _spy(monkeypatch)
    rng = _rng()
    x = rng.randn(2, 3, 6, 10)
    W = rng.randn(4, 3, 4, 4)
    b = rng.randn(4)
    gy = rng.randn(2, 4, 3, 5)

    def f(x, W, b):
        return F.convolution_2d(x, W, b, stride=2, pad=1)
    y = f(x, W, b).array
    numpy.testing.assert_allclose(y, _conv64(x, W) + b.reshape(1, -1, 1, 1),
                                  rtol=1e-12, atol=1e-12)
    gradient_check.check_backward(f, (x, W, b), gy, dtype=numpy.float64,
                                  atol=1e-6, rtol=1e-6)
    assert {name for name, _ in calls} == {'s2_deconv', 's2_conv',
                                           's2_grad_w'}


def test_dcgan_layer_dispatch(monkeypatch):
    """At DCGAN's sizes F.deconvolution_2d takes this path by itself, and
    the backward reuses the forward's positions; without the C loops the
    im2col path gives the same numbers to tolerance."""
    calls = _spy(monkeypatch)
    x, W, b, gy = _data(numpy.float32, 16, 64, 64, 8, 8)
    want = (_deconv64(x, W, b), _conv64(gy, W), _grad_w64(x, gy))
    scale = (_deconv64(abs(x), abs(W), abs(b)), _conv64(abs(gy), abs(W)),
             _grad_w64(abs(x), abs(gy)))
    for native in (True, False):
        with monkeypatch.context() as m:
            if not native:
                m.setattr(conv_nd, '_loops', None)
            del calls[:]
            xv, Wv, bv = (chainer.Variable(a) for a in (x, W, b))
            y = F.deconvolution_2d(xv, Wv, bv, stride=2, pad=1)
            y.grad = gy
            y.backward()
            for got, w, s in zip((y.array, xv.grad, Wv.grad), want, scale):
                _check(got, w, s, numpy.float32)
            assert calls == ([('s2_deconv', False), ('s2_conv', True)]
                             if native else [])
    with chainer.no_backprop_mode():
        del calls[:]
        F.deconvolution_2d(x, W, b, stride=2, pad=1)
        assert calls == [('s2_deconv', False)]


def test_where_it_does_not_apply():
    x = numpy.zeros((16, 64, 8, 8), numpy.float32)  # 64 8x8 blocks
    geom = ((4, 4), (2, 2), (1, 1), (1, 1))
    assert _winograd.s2_applies(x, 64, *geom, None)
    assert _winograd.s2_applies(x, 64, *geom, (16, 16))
    assert not _winograd.s2_applies(x, 64, *geom, (17, 16))  # outsize
    assert not _winograd.s2_applies(x.astype(numpy.float16), 32, *geom,
                                    None)
    assert not _winograd.s2_applies(x[:, :16], 32, *geom, None)  # channels
    assert not _winograd.s2_applies(x[:3], 32, *geom, None)  # 48 windows
    assert not _winograd.s2_applies(x, 64, (4, 4), (1, 1), (1, 1), (1, 1),
                                    None)
    assert not _winograd.s2_applies(x, 64, (4, 4), (2, 2), (0, 0), (1, 1),
                                    None)
    assert not _winograd.s2_applies(x, 64, (3, 3), (2, 2), (1, 1), (1, 1),
                                    None)
    assert not _winograd.s2_applies(x, 64, (4, 4), (2, 2), (1, 1), (2, 2),
                                    None)
    # the convolution: an even input, the output half of it
    big = numpy.zeros((16, 64, 16, 16), numpy.float32)
    assert _winograd.s2_applies(big, 64, *geom, (8, 8), deconv=False)
    assert _winograd.s2_applies(big, 64, *geom, None, deconv=False)
    assert not _winograd.s2_applies(big[:, :, :15], 64, *geom, None,
                                    deconv=False)
    assert not _winograd.s2_applies(big, 64, *geom, (9, 8), deconv=False)
    assert not _winograd.s2_applies(big, 32, *geom, None, deconv=False)


def test_loops_refuse_other_shapes_and_dtypes():
    loops = conv_nd._loops
    x = numpy.zeros((2, 3, 8, 8), numpy.float32)
    V = numpy.zeros((100, 2 * 2 * 2, 3), numpy.float32)
    loops.winograd_s2_input(V, x)
    for bad in (V[:99], V[:, 1:], V[:, :, :2], numpy.zeros((100, 3, 8),
                                                           numpy.float32)):
        with pytest.raises(ValueError, match=r'100, b \* th \* tw, c'):
            loops.winograd_s2_input(bad, x)
    with pytest.raises(TypeError, match='float32 or float64'):
        loops.winograd_s2_input(V.astype(numpy.float64), x)
    y = numpy.zeros((2, 3, 16, 16), numpy.float32)
    with pytest.raises(TypeError, match='winograd_s2_output'):
        loops.winograd_s2_output(y, V, numpy.zeros(2, numpy.float32))
