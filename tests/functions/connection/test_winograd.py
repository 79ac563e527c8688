"""Winograd convolutions (chainer.functions.connection._winograd), with 2x2
output tiles (F(2x2, 3x3)) and 4x4 (F(4x4, 3x3)).

Each result is held to a float64 reference built from the windows of the
image (im2col), with a tolerance relative to the magnitude of the terms:
the same sums taken over absolute values (``|W| * |x| + |b|``), their
largest value over each image plane (for a filter gradient, over each 3x3
filter).  Winograd rounds differently from a direct sum: its transforms
add and subtract the whole 4x4 tile of the input (and the 16 positions of
the filter gradient), terms that cancel exactly in exact arithmetic but
leave rounding errors, so an element's error is bounded by a small
multiple of the precision times the magnitudes around it, not times
``|want|`` (a gradient entry of 0 gets errors of 1e-8).  Measured worst
cases are about 3e-7 (float32) and 1e-15 (float64) of that magnitude; the
bounds allow 1e-5 (about 80 float32 epsilons) and 1e-12.  4x4 tiles
transform with larger numbers (up to 8, and 1/24): measured up to about
3e-6 in float32; the bounds allow 3e-5.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.functions.connection import _winograd
from chainer.utils import conv_nd
from chainer.utils.conv_nd import im2col_view

pytestmark = pytest.mark.skipif(conv_nd._loops is None,
                                reason='the C loops are not built')

RTOL = {numpy.float32: 1e-5, numpy.float64: 1e-12}
RTOL4 = {numpy.float32: 3e-5, numpy.float64: 1e-12}
TILES = [2, 4]  # the sides of the output tiles
SIZES = [(1, 1, 1), (3, 5, 7), (2, 2, 3), (1, 8, 8), (2, 6, 1)]
PADS = [(0, 0), (1, 1), (2, 2), (0, 2), (2, 1)]


def _rng():
    return numpy.random.RandomState(7)


def _windows(x, pad, outs):
    """The windows of ``x`` in float64: ``(n, c, 3, 3, *outs)``."""
    return im2col_view(x.astype(numpy.float64), (3, 3), (1, 1), pad,
                       outs=outs)


def _outs(dims, pad):
    return tuple(d + 2 * p - 2 for d, p in zip(dims, pad))


def _conv64(x, W, b, pad):
    col = _windows(x, pad, _outs(x.shape[2:], pad))
    y = numpy.tensordot(col, W.astype(numpy.float64), ((1, 2, 3), (1, 2, 3)))
    y = numpy.moveaxis(y, -1, 1)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def _grad_x64(gy, W, pad, dims):
    """``sum_o W[o, c, ky, kx] gy[n, o, y, x]`` summed onto pixel ``(y + ky
    - pad, x + kx - pad)`` (the adjoint of the convolution in x)."""
    n, _, oh, ow = gy.shape
    ph, pw = pad
    img = numpy.zeros((n, W.shape[1], dims[0] + 2 * ph + 2,
                       dims[1] + 2 * pw + 2))
    for ky in range(3):
        for kx in range(3):
            img[:, :, ky:ky + oh, kx:kx + ow] += numpy.einsum(
                'oc,noyx->ncyx', W[:, :, ky, kx].astype(numpy.float64),
                gy.astype(numpy.float64))
    return img[:, :, ph:ph + dims[0], pw:pw + dims[1]]


def _grad_w64(x, gy, pad):
    col = _windows(x, pad, gy.shape[2:])
    return numpy.tensordot(gy.astype(numpy.float64), col,
                           ((0, 2, 3), (0, 4, 5)))


def _check(got, want, scale, dtype, m=2):
    assert got.dtype == dtype and got.shape == want.shape
    err = numpy.abs(got - want)
    rtol = (RTOL4 if m == 4 else RTOL)[dtype]
    bound = rtol * scale.max(axis=(2, 3), keepdims=True) + 1e-30
    assert (err <= bound).all(), (err / bound).max()


def _cases():
    for n, h, w in SIZES:
        for pad in PADS:
            if h + 2 * pad[0] > 2 and w + 2 * pad[1] > 2:
                yield n, h, w, pad


@pytest.mark.parametrize('m', TILES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('n,h,w,pad', list(_cases()))
def test_forward(dtype, n, h, w, pad, m):
    rng = _rng()
    x = rng.randn(n, 3, h, w).astype(dtype)
    W = rng.randn(4, 3, 3, 3).astype(dtype)
    b = rng.randn(4).astype(dtype)
    scale = _conv64(abs(x), abs(W), abs(b), pad)
    _check(_winograd.conv(x, W, b, pad, m), _conv64(x, W, b, pad), scale,
           dtype, m)
    _check(_winograd.conv(x, W, None, pad, m), _conv64(x, W, None, pad),
           scale, dtype, m)


@pytest.mark.parametrize('m', TILES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('n,h,w,pad', list(_cases()))
def test_grad_x(dtype, n, h, w, pad, m):
    """The input gradient: a stride-1 deconvolution of gy with the
    convolution's W (``(out_c, c, 3, 3)``, its in_c first)."""
    rng = _rng()
    W = rng.randn(4, 3, 3, 3).astype(dtype)
    gy = rng.randn(n, 4, *_outs((h, w), pad)).astype(dtype)
    b = rng.randn(3).astype(dtype)
    want = _grad_x64(gy, W, pad, (h, w))
    scale = _grad_x64(abs(gy), abs(W), pad, (h, w)) + abs(b).reshape(
        1, -1, 1, 1)
    _check(_winograd.deconv(gy, W, None, pad, m), want, scale, dtype, m)
    _check(_winograd.deconv(gy, W, b, pad, m), want + b.reshape(1, -1, 1, 1),
           scale, dtype, m)


@pytest.mark.parametrize('m', TILES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('n,h,w,pad', list(_cases()))
def test_grad_w(dtype, n, h, w, pad, m):
    rng = _rng()
    x = rng.randn(n, 3, h, w).astype(dtype)
    gy = rng.randn(n, 4, *_outs((h, w), pad)).astype(dtype)
    _check(_winograd.grad_w(x, gy, pad, m), _grad_w64(x, gy, pad),
           _grad_w64(abs(x), abs(gy), pad), dtype, m)


@pytest.mark.parametrize('m', TILES)
@pytest.mark.parametrize('size', [(7, 9), (13, 38)])
def test_chunks_strides_and_repeats(monkeypatch, m, size):
    """Several chunks of samples (the filter gradient summed across them),
    channels-last and column-strided views as inputs, and the same bytes
    on every call."""
    monkeypatch.setattr(_winograd, 'CHUNK_BYTES', 1)  # a sample per chunk
    rng = _rng()
    h, w = size
    x = rng.randn(3, h, w, 5).astype(numpy.float32).transpose(0, 3, 1, 2)
    W = rng.randn(6, 5, 3, 3).astype(numpy.float32)
    gy = rng.randn(3, h, 2 * w, 6).astype(numpy.float32).transpose(
        0, 3, 1, 2)[:, :, :, ::2]
    pad = (1, 1)
    y = _winograd.conv(x, W, None, pad, m)
    _check(y, _conv64(x, W, None, pad), _conv64(abs(x), abs(W), None, pad),
           numpy.float32, m)
    gW = _winograd.grad_w(x, gy, pad, m)
    _check(gW, _grad_w64(x, gy, pad), _grad_w64(abs(x), abs(gy), pad),
           numpy.float32, m)
    gx = _winograd.deconv(gy, W, None, pad, m)
    _check(gx, _grad_x64(gy, W, pad, (h, w)),
           _grad_x64(abs(gy), abs(W), pad, (h, w)), numpy.float32, m)
    assert _winograd.conv(x, W, None, pad, m).tobytes() == y.tobytes()
    assert _winograd.grad_w(x, gy, pad, m).tobytes() == gW.tobytes()
    assert _winograd.deconv(gy, W, None, pad, m).tobytes() == gx.tobytes()


def test_wide_images_take_4x4_tiles(monkeypatch):
    # (the scheme is seen by the tile arrays the C loops get: 16 or 36
    # positions)
    seen = []
    real = conv_nd._loops

    class Spy:
        def __getattr__(self, name):
            fn = getattr(real, name)
            if not name.startswith('winograd_'):
                return fn

            def spy(tiles_or_y, *args):
                seen.append((name, len(args[0] if name == 'winograd_output'
                                       else tiles_or_y)))
                return fn(tiles_or_y, *args)
            return spy
    monkeypatch.setattr(conv_nd, '_loops', Spy())
    rng = _rng()
    W = rng.randn(2, 2, 3, 3).astype(numpy.float32)
    for w, positions in ((_winograd.WIDE, 36), (_winograd.WIDE - 1, 16)):
        seen.clear()
        x = rng.randn(1, 2, 4, w + 2).astype(numpy.float32)
        y = _winograd.conv(x, W, None, (0, 0))
        _winograd.grad_w(x, y, (0, 0))
        assert seen == [('winograd_input', positions),
                        ('winograd_output', positions),
                        ('winograd_input', positions),
                        ('winograd_grad', positions)]


def _spy(monkeypatch):
    """Counts the calls of the three Winograd entry points."""
    calls = {'conv': 0, 'deconv': 0, 'grad_w': 0}
    for name in calls:
        def wrapped(*args, _f=getattr(_winograd, name), _name=name, **kw):
            calls[_name] += 1
            return _f(*args, **kw)
        monkeypatch.setattr(_winograd, name, wrapped)
    return calls


def _everywhere(monkeypatch):
    """Winograd for any qualifying shape, however small."""
    monkeypatch.setattr(_winograd, 'MIN_CHANNELS', 1)
    monkeypatch.setattr(_winograd, 'MIN_TILES', 1)
    monkeypatch.setattr(_winograd, 'GRAD_W_MIN_CHANNELS', 1)


def test_check_backward(monkeypatch):
    _everywhere(monkeypatch)
    calls = _spy(monkeypatch)
    rng = _rng()
    x = rng.randn(2, 3, 5, 6)
    W = rng.randn(4, 3, 3, 3)
    b = rng.randn(4)
    gy = rng.randn(2, 4, 5, 6)
    ggs = (rng.randn(*x.shape), rng.randn(*W.shape), rng.randn(4))

    def f(x, W, b):
        return F.convolution_2d(x, W, b, pad=1)
    gradient_check.check_backward(f, (x, W, b), gy, dtype=numpy.float64,
                                  atol=1e-6, rtol=1e-6)
    gradient_check.check_double_backward(f, (x, W, b), gy, ggs,
                                         dtype=numpy.float64, atol=1e-6,
                                         rtol=1e-6)
    assert calls['conv'] and calls['deconv'] and calls['grad_w']


def _resblock_conv():
    rng = _rng()
    x = rng.randn(2, 16, 64, 32).astype(numpy.float32)  # 1024 tiles
    W = (rng.randn(16, 16, 3, 3) * 0.1).astype(numpy.float32)
    return x, W


def test_dispatch_and_fallback(monkeypatch):
    """F.convolution_2d takes Winograd for its forward and input gradient
    where it pays (the filter gradient only with 64 channels or more),
    and the im2col path without the C loops, to the same tolerance."""
    x, W = _resblock_conv()
    gy = _rng().randn(2, 16, 64, 32).astype(numpy.float32)
    want = (_conv64(x, W, None, (1, 1)), _grad_x64(gy, W, (1, 1), (64, 32)),
            _grad_w64(x, gy, (1, 1)))
    scale = (_conv64(abs(x), abs(W), None, (1, 1)),
             _grad_x64(abs(gy), abs(W), (1, 1), (64, 32)),
             _grad_w64(abs(x), abs(gy), (1, 1)))
    for native in (True, False):
        with monkeypatch.context() as m:
            if not native:
                m.setattr(conv_nd, '_loops', None)
            calls = _spy(m)
            xv, Wv = chainer.Variable(x), chainer.Variable(W)
            y = F.convolution_2d(xv, Wv, pad=1)
            y.grad = gy
            y.backward()
            for got, w, s in zip((y.array, xv.grad, Wv.grad), want, scale):
                _check(got, w, s, numpy.float32)
            # the input gradient is a deconvolution, run as a convolution
            expect = 1 if native else 0
            assert calls == {'conv': 2 * expect, 'deconv': expect,
                             'grad_w': 0}


def test_where_it_does_not_apply():
    rng = _rng()
    x = rng.randn(2, 16, 64, 32).astype(numpy.float32)
    geom = ((3, 3), (1, 1), (1, 1), (1, 1))
    assert _winograd.applies(x, 16, *geom)
    assert not _winograd.applies(x.astype(numpy.float16), 16, *geom)
    assert not _winograd.applies(x[:, :3], 16, *geom)  # few channels
    assert not _winograd.applies(x[:1, :, :32], 16, *geom)  # 256 tiles
    assert not _winograd.applies(x, 16, (3, 3), (2, 2), (1, 1), (1, 1))
    assert not _winograd.applies(x, 16, (3, 3), (1, 1), (3, 3), (1, 1))
    assert not _winograd.applies(x, 16, (3, 3), (1, 1), (1, 1), (2, 2))
    assert not _winograd.applies(x, 16, (5, 5), (1, 1), (1, 1), (1, 1))
    assert not _winograd.grad_w_pays(16, 16)
    assert _winograd.grad_w_pays(128, 256)


def test_loops_refuse_tiles_of_other_shapes():
    loops = conv_nd._loops
    x = numpy.zeros((2, 3, 8, 8), numpy.float32)
    for positions, tiles in ((16, 4 * 4), (36, 2 * 2)):
        V = numpy.zeros((positions, 3, 2 * tiles), numpy.float32)
        loops.winograd_input(V, x, (1, 1, int(tiles ** .5),
                                    int(tiles ** .5)))
        for bad in (numpy.zeros((25, 3, 2 * tiles), numpy.float32),
                    V[:, :2], V[:, :, 1:]):
            with pytest.raises(ValueError, match='16 or 36'):
                loops.winograd_input(bad, x, (1, 1, int(tiles ** .5),
                                              int(tiles ** .5)))
        with pytest.raises(ValueError, match='16 or 36'):
            loops.winograd_output(numpy.zeros((2, 3, 8, 8), numpy.float32),
                                  V[:, :, :-1], None)
    with pytest.raises(TypeError, match='float32 or float64'):
        loops.winograd_grad(numpy.zeros((36, 3, 8), numpy.float64), x)


def test_forward_keeps_positions_for_the_filter_gradient(monkeypatch):
    """F.convolution_2d's forward keeps x's positions for its filter
    gradient (the same bits as computing them again); a mismatched x, or
    no backprop, keeps nothing."""
    _everywhere(monkeypatch)
    x, W = _resblock_conv()
    gy = _rng().randn(2, 16, 64, 32).astype(numpy.float32)
    y, held = _winograd.conv(x, W, None, (1, 1), keep=True)
    assert held is not None
    numpy.testing.assert_array_equal(y, _winograd.conv(x, W, None, (1, 1)))
    want = _winograd.grad_w(x, gy, (1, 1))
    numpy.testing.assert_array_equal(
        _winograd.grad_w(x, gy, (1, 1), held=held), want)
    _, held = _winograd.conv(x, W, None, (1, 1), keep=True)
    numpy.testing.assert_array_equal(   # another x: computed again
        _winograd.grad_w(x.copy(), gy, (1, 1), held=held), want)
    seen = []
    real = _winograd.grad_w

    def spy(*args, **kw):
        seen.append(kw.get('held') is not None)
        return real(*args, **kw)
    monkeypatch.setattr(_winograd, 'grad_w', spy)
    xv, Wv = chainer.Variable(x), chainer.Variable(W)
    out = F.convolution_2d(xv, Wv, pad=1)
    out.grad = gy
    out.backward()
    assert seen == [True]
    numpy.testing.assert_array_equal(Wv.grad, want)
    kept = []
    real_conv = _winograd.conv

    def conv_spy(*args, **kw):
        kept.append(kw.get('keep', False))
        return real_conv(*args, **kw)
    monkeypatch.setattr(_winograd, 'conv', conv_spy)
    with chainer.no_backprop_mode():
        F.convolution_2d(x, W, pad=1)
    F.convolution_2d(x, W, pad=1)
    assert kept == [False, True]
