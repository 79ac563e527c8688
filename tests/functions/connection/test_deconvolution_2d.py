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
