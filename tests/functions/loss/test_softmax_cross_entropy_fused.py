"""The fused softmax cross entropy over many classes (the C loops'
softmax_ce_lse and softmax_ce_grad, taken for float32 logits of at least
_FUSED_CLASSES classes): loss and gradient against float64 references,
its exponential's error, NaN and infinity, the options (reduce, class
weights, ignored labels, normalize) and where it is not taken."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.functions.loss import softmax_cross_entropy as sce_mod
from op_harness import spy_calls

pytestmark = pytest.mark.skipif(sce_mod._fused is None,
                                reason='the C loops are not built')

C = sce_mod._FUSED_CLASSES + 37  # a ragged row (not a multiple of lanes)


def _data(n=6, c=C, scale=4.0, seed=3):
    rng = numpy.random.RandomState(seed)
    x = (rng.randn(n, c) * scale).astype(numpy.float32)
    t = rng.randint(0, c, n).astype(numpy.int32)
    return x, t


def _ref(x, t, gy=1.0, normalize=True, class_weight=None, reduce='mean',
         ignore=-1):
    """The loss and its gradient in float64."""
    x = x.astype(numpy.float64)
    m = x.max(axis=1, keepdims=True)
    log_y = x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))
    valid = t != ignore
    tt = numpy.where(valid, t, 0)
    w = valid.astype(numpy.float64)
    if class_weight is not None:
        w = w * class_weight[tt]
    rows = numpy.arange(len(x))
    loss = -log_y[rows, tt] * w
    gx = numpy.exp(log_y)
    gx[rows, tt] -= 1
    gx *= w[:, None]
    if reduce == 'no':
        return loss, gx * numpy.asarray(gy)[:, None]
    count = valid.sum() if normalize else len(x)
    coeff = 1.0 / max(count, 1)
    return loss.sum() * coeff, gx * (gy * coeff)


def _run(x, t, gy=None, **kw):
    xv = chainer.Variable(x)
    loss = F.softmax_cross_entropy(xv, t, **kw)
    if gy is None:
        gy = numpy.ones_like(loss.array)
    loss.grad = gy
    loss.backward()
    return loss.array, xv.grad


@pytest.mark.parametrize('kw', [
    {}, {'reduce': 'no'}, {'normalize': False}, {'class_weight': 'cw'},
    {'class_weight': 'cw', 'reduce': 'no'}, {'cache_score': False},
    {'ignore_label': None},
])
def test_close_to_float64(monkeypatch, kw):
    calls = spy_calls(monkeypatch, sce_mod, '_fused')
    x, t = _data()
    t[1] = -1 if kw.get('ignore_label', -1) == -1 else t[1]
    kw = dict(kw)
    if kw.get('class_weight') == 'cw':
        kw['class_weight'] = numpy.random.RandomState(0).uniform(
            0.5, 2, C).astype(numpy.float32)
    reduce = kw.get('reduce', 'mean')
    gy = (numpy.linspace(0.5, 2, len(x)).astype(numpy.float32)
          if reduce == 'no' else numpy.array(1.5, numpy.float32))
    loss, gx = _run(x, t, gy, **kw)
    cw = kw.get('class_weight')
    ref_loss, ref_gx = _ref(x, t, gy, kw.get('normalize', True),
                            None if cw is None else cw.astype(numpy.float64),
                            reduce, kw.get('ignore_label', -1))
    assert calls == ['softmax_ce_lse', 'softmax_ce_grad']
    assert loss.dtype == gx.dtype == numpy.float32
    assert loss.shape == numpy.shape(ref_loss)
    numpy.testing.assert_allclose(loss, ref_loss, rtol=2e-6, atol=1e-6)
    # each item within a few float32 epsilons of the row's largest
    numpy.testing.assert_allclose(gx, ref_gx, rtol=0, atol=4e-7 * abs(
        ref_gx).max())
    if kw.get('ignore_label', -1) == -1:
        assert not gx[1].any()


def test_same_as_numpy_path(monkeypatch):
    # the NumPy path (Chainer's bits) and the fused one agree to float
    # tolerance, and the fused one gives the same bits every time
    from chainer.utils import conv_nd
    x, t = _data(n=20, c=10000, scale=2.0)
    fused = _run(x, t)
    assert all((a == b).all() for a, b in zip(fused, _run(x, t)))
    for threads in (1, 2):  # rows shared among threads: the same bits
        conv_nd._loops.set_threads(threads)
        try:
            again = _run(x, t)
        finally:
            conv_nd._loops.set_threads(conv_nd.DEFAULT_THREADS)
        assert all((a == b).all() for a, b in zip(fused, again))
    monkeypatch.setattr(sce_mod, '_fused', None)
    plain = _run(x, t)
    numpy.testing.assert_allclose(fused[0], plain[0], rtol=1e-6)
    numpy.testing.assert_allclose(fused[1], plain[1], rtol=0,
                                  atol=1e-6 * abs(plain[1]).max())


def test_exponential_within_an_ulp_and_a_quarter():
    # softmax_ce_grad with m = log_s = 0, scale 1 and no label is exp(x)
    x = -numpy.linspace(0, 87, 200001).astype(numpy.float32)[None]
    zero = numpy.zeros(1, numpy.float32)
    e = numpy.empty_like(x)
    sce_mod._fused.softmax_ce_grad(e, x, zero, zero, numpy.array([-1]),
                                   numpy.ones(1, numpy.float32), 1, x.size)
    exact = numpy.exp(x.astype(numpy.float64))
    ulp = numpy.spacing(exact.astype(numpy.float32)).astype(numpy.float64)
    # (0.93 ulp measured with fused multiply-adds, 1.22 without)
    assert (abs(e - exact) / ulp).max() < 1.25
    # below -87 (a subnormal result) and at -inf: 0
    e2 = numpy.empty((1, 3), numpy.float32)
    sce_mod._fused.softmax_ce_grad(
        e2, numpy.array([[-87.5, -1e30, -numpy.inf]], numpy.float32), zero,
        zero, numpy.array([-1]), numpy.ones(1, numpy.float32), 1, 3)
    assert (e2 == 0).all()


@pytest.mark.parametrize('c', [C, 10000, 300000])
def test_long_rows_sum_accurately(c):
    # exp(x - m) is 0.7 but for the maximum's 1: summed in float lanes
    # throughout, 300,000 of them were 185 ulp off; in blocks, within
    # one ulp of log(1 + 0.7 (c - 1))
    x = numpy.full((2, c), numpy.log(0.7), numpy.float32)
    x[:, 0] = 0
    x[1] += 5  # the same shifted by the maximum
    m, log_s = numpy.empty(2, numpy.float32), numpy.empty(2, numpy.float32)
    sce_mod._fused.softmax_ce_lse(m, log_s, x, 2, c)
    exact = numpy.log(numpy.exp(x[0].astype(numpy.float64)).sum())
    assert (m == [0, 5]).all()
    assert (abs(log_s - exact) <= numpy.spacing(numpy.float32(exact))).all()


def test_large_logits_and_minus_infinity():
    # shifted by the row's maximum: finite for logits of 1e4, and a class
    # at -inf has probability 0
    x, t = _data(n=4)
    x[0] += 1e4
    x[1, :] = -numpy.inf
    x[1, :3] = [1, 2, 3]
    t[1] = 2
    loss, gx = _run(x, t, reduce='no')
    ref_loss, ref_gx = _ref(x, t, numpy.ones(4), reduce='no')
    numpy.testing.assert_allclose(loss, ref_loss, rtol=1e-5)
    assert numpy.isfinite(gx).all()
    assert not gx[1, 3:].any()
    numpy.testing.assert_allclose(gx[1, :3], ref_gx[1, :3], rtol=1e-6)


@pytest.mark.parametrize('bad', [numpy.nan, numpy.inf])
def test_nan_and_infinity_give_nan(bad):
    # as the NumPy path: the row's loss and gradient are NaN
    x, t = _data(n=3)
    x[1, 5] = bad
    loss, gx = _run(x, t, reduce='no')
    assert numpy.isnan(loss[1]) and numpy.isfinite(loss[[0, 2]]).all()
    assert numpy.isnan(gx[1]).all() or bad == numpy.inf
    assert numpy.isnan(gx[1, 5])
    assert numpy.isfinite(gx[[0, 2]]).all()


def test_gradient_check(monkeypatch):
    # in float32 (the fused path's dtype): central differences of the loss
    # (about 7, so each rounds by ~5e-7 / 2 eps) against the gradient
    # (about 1 / (2 C) off the labels)
    calls = spy_calls(monkeypatch, sce_mod, '_fused')
    x, t = _data(n=2, scale=1.0)
    gradient_check.check_backward(
        lambda x: F.softmax_cross_entropy(x, t), x, None, eps=1e-2,
        atol=3e-5, rtol=1e-3)
    assert 'softmax_ce_grad' in calls


def test_cached_softmax_is_computed_on_demand():
    x, t = _data(n=2)
    func = sce_mod.SoftmaxCrossEntropy()
    func.apply((x, t))
    e = numpy.exp(x.astype(numpy.float64) - x.max(1, keepdims=True))
    numpy.testing.assert_allclose(func.y, e / e.sum(1, keepdims=True),
                                  rtol=1e-5, atol=1e-12)
    func = sce_mod.SoftmaxCrossEntropy(cache_score=False)
    func.apply((x, t))
    assert func.y is None


@pytest.mark.parametrize('x', [
    numpy.zeros((2, C), numpy.float64),  # float32 only
    numpy.zeros((2, C), numpy.float16),
    numpy.zeros((2, sce_mod._FUSED_CLASSES - 1), numpy.float32),  # few
    numpy.zeros((2, C, 2), numpy.float32),  # a spatial axis
    numpy.zeros((C, 2), numpy.float32).T,  # not C-contiguous
    numpy.zeros((0, C), numpy.float32),  # empty
])
def test_not_taken(monkeypatch, x):
    calls = spy_calls(monkeypatch, sce_mod, '_fused')
    t = numpy.zeros((x.shape[0],) + x.shape[2:], numpy.int32)
    loss, gx = _run(x, t, reduce='no')
    assert calls == []
    assert gx.dtype == x.dtype


def test_soft_targets_and_double_backprop_not_taken(monkeypatch):
    calls = spy_calls(monkeypatch, sce_mod, '_fused')
    x, t = _data(n=2)
    soft = numpy.full(x.shape, 1.0 / C, numpy.float32)
    _run(x, soft)
    _run(x, t, enable_double_backprop=True)
    assert calls == []


def test_loops_refuse_bad_arrays():
    x = numpy.zeros((2, 8), numpy.float32)
    m = numpy.zeros(2, numpy.float32)
    with pytest.raises(TypeError, match='softmax_ce_lse x'):
        sce_mod._fused.softmax_ce_lse(m, m.copy(), x.astype(numpy.float64),
                                      2, 8)
    with pytest.raises(TypeError, match='softmax_ce_lse m'):
        sce_mod._fused.softmax_ce_lse(m[:1], m.copy(), x, 2, 8)
    with pytest.raises(TypeError, match='softmax_ce_grad t.*int64'):
        sce_mod._fused.softmax_ce_grad(x.copy(), x, m, m, numpy.zeros(
            2, numpy.int32), m, 2, 8)
    with pytest.raises(ValueError, match='c > 0'):
        sce_mod._fused.softmax_ce_lse(m, m.copy(), x, 2, 0)
