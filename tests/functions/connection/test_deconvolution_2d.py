import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

F16_TOL = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}
F16_BWD = {numpy.float16: dict(atol=1e-1, rtol=1e-1)}


def deconv_ref(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
               groups=1):
    """Scatters every input pixel times the filter (a loop reference)."""
    nd = x.ndim - 2
    s, p, d = [(v,) * nd if numpy.isscalar(v) else tuple(v)
               for v in (stride, pad, dilate)]
    k = W.shape[2:]
    dims = x.shape[2:]
    if outsize is None:
        outsize = [s[i] * (dims[i] - 1) + (k[i] - 1) * d[i] + 1 - 2 * p[i]
                   for i in range(nd)]
    n, in_c = x.shape[:2]
    cg, og = in_c // groups, W.shape[1]
    full = [max(outsize[i] + 2 * p[i], s[i] * (dims[i] - 1) +
                (k[i] - 1) * d[i] + 1) for i in range(nd)]
    y = numpy.zeros((n, og * groups) + tuple(full))
    for pos in numpy.ndindex(*dims):
        sl = tuple(slice(pos[i] * s[i], pos[i] * s[i] + (k[i] - 1) * d[i] + 1,
                         d[i]) for i in range(nd))
        for g in range(groups):
            xv = x[(slice(None), slice(g * cg, (g + 1) * cg)) + pos]
            y[(slice(None), slice(g * og, (g + 1) * og)) + sl] += \
                numpy.tensordot(xv, W[g * cg:(g + 1) * cg], (1, 0))
    y = y[(Ellipsis,) + tuple(slice(p[i], p[i] + outsize[i])
                              for i in range(nd))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y


CASES = [
    dict(),
    dict(stride=2, pad=1),
    dict(stride=2, outsize=(10, 11)),   # a cover_all-sized output
    dict(stride=(2, 1), pad=(0, 2), dilate=2, groups=2),
]


@pytest.mark.parametrize('kw', CASES)
def test_deconvolution_2d(kw):
    groups = kw.get('groups', 1)

    def make(rng, dt):
        return (rng.uniform(-1, 1, (2, 4, 4, 5)).astype(dt),
                rng.uniform(-1, 1, (4, 3, 3, 2)).astype(dt),
                rng.uniform(-1, 1, (3 * groups,)).astype(dt))

    check_op(lambda x, W, b: F.deconvolution_2d(x, W, b, **kw), make,
             lambda x, W, b: deconv_ref(x, W, b, **kw), fwd_tol=F16_TOL,
             bwd_tol=F16_BWD)


def test_deconvolution_2d_no_bias_batch1():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (1, 2, 3, 3)).astype(dt),
                rng.uniform(-1, 1, (2, 1, 2, 2)).astype(dt))

    check_op(lambda x, W: F.deconvolution_2d(x, W, stride=3), make,
             lambda x, W: deconv_ref(x, W, stride=3), fwd_tol=F16_TOL,
             bwd_tol=F16_BWD)


def test_creator():
    y = F.deconvolution_2d(numpy.ones((1, 2, 3, 3), numpy.float32),
                           numpy.ones((2, 3, 2, 2), numpy.float32))
    assert type(y.creator).__name__ == 'Deconvolution2DFunction'
    assert y.shape == (1, 3, 4, 4)


def test_errors():
    x = numpy.ones((2, 3, 5, 5), numpy.float32)
    W = numpy.ones((3, 2, 3, 3), numpy.float32)
    with pytest.raises(InvalidType, match='outsize'):
        F.deconvolution_2d(x, W, outsize=(20, 20))
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.shape\[1\] == '
                       r'in_types\[1\]\.shape\[0\]'):
        F.deconvolution_2d(x, numpy.ones((2, 2, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match='deterministic'):
        F.deconvolution_2d(x, W, deterministic=True)
    assert F.deconvolution_2d(x, W, stride=2, outsize=(12, 12)).shape == \
        (2, 2, 12, 12)


def test_grad_x_bits_match_chainer():
    # Chainer's gx is a convolution of gy done as its tensordot with the
    # window columns (a single output channel takes another BLAS route,
    # which rounds differently); the same product must give the same bits.
    import chainer
    from numpy.lib.stride_tricks import sliding_window_view
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(1, 1, 4, 5).astype(numpy.float32))
    W = numpy.full((1, 2, 2, 2), 0.3, numpy.float32)
    y = F.deconvolution_2d(x, W)
    F.sum(y * y).backward()
    gy = 2 * y.array
    col = numpy.ascontiguousarray(sliding_window_view(
        gy, (2, 2), axis=(2, 3)).transpose(0, 1, 4, 5, 2, 3))
    expect = numpy.rollaxis(
        numpy.tensordot(col, W, ((1, 2, 3), (1, 2, 3))), 3, 1)
    numpy.testing.assert_array_equal(x.grad, expect)


def _deconv_grads(x0, W0, b0, gy0, kw, double):
    import chainer
    vs = [chainer.Variable(a) for a in (x0, W0, b0) if a is not None]
    y = F.deconvolution_2d(*vs, **kw)
    y.grad = gy0
    y.backward(enable_double_backprop=double)
    for v in vs:
        assert v.grad.shape == v.shape and v.grad.dtype == v.dtype
    return [v.grad for v in vs]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('n,kw,bias', [
    (1, dict(stride=2, pad=1), True),
    (3, dict(stride=2, pad=1), False),
    (2, dict(stride=3, pad=0, outsize=(9, 11)), True),  # cover_all
    (2, dict(stride=1, pad=1, dilate=2), True),
    (40, dict(stride=2, pad=1), True),  # several chunks of samples
])
def test_array_step_reads_gy_windows_once(n, kw, bias, dtype, monkeypatch):
    # Without a graph to record, the input and filter gradients come from
    # one pass over gy's windows (_conv.conv_and_grad_w): the same bits as
    # the recorded backward's convolution and filter-gradient nodes, and
    # the values of a float64 computation
    from chainer.functions.connection import _conv
    if n == 40:
        monkeypatch.setattr(_conv, '_CHUNK_BYTES', 1 << 16)
    calls = []
    shared = _conv.conv_and_grad_w
    monkeypatch.setattr(_conv, 'conv_and_grad_w',
                        lambda *a: calls.append(1) or shared(*a))
    rng = numpy.random.RandomState(4)
    x0 = rng.randn(n, 4, 3, 4).astype(dtype)
    W0 = rng.randn(4, 3, 3, 3).astype(dtype)
    b0 = rng.randn(3).astype(dtype) if bias else None
    shape = F.deconvolution_2d(x0, W0, b0, **kw).shape
    gy0 = rng.randn(*shape).astype(dtype)
    plain = _deconv_grads(x0, W0, b0, gy0, kw, False)
    assert calls == [1]
    recorded = _deconv_grads(x0, W0, b0, gy0, kw, True)
    assert calls == [1]
    for g0, g1 in zip(plain, recorded):
        numpy.testing.assert_array_equal(g0, g1)
    ref = _deconv_grads(*[None if a is None else a.astype(numpy.float64)
                          for a in (x0, W0, b0, gy0)], kw, True)
    tol = dict(rtol=5e-2, atol=5e-2) if dtype == numpy.float16 else \
        dict(rtol=1e-5, atol=1e-5)
    for g, r in zip(plain, ref):
        numpy.testing.assert_allclose(g, r, **tol)
