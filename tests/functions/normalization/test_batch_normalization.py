import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.normalization import batch_normalization as bn_module
from chainer.utils import conv_nd
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _bn_ref(x, gamma, beta, axes, eps=2e-5):
    keep = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps) * gamma.reshape(keep) + \
        beta.reshape(keep)


F16_BWD = {numpy.float16: dict(atol=1e-1, rtol=1e-1)}


@pytest.mark.parametrize('x_shape,g_shape,axis,axes', [
    ((4, 3), (3,), None, (0,)),
    ((3, 2, 2), (2,), None, (0, 2)),
    ((2, 3, 2), (3, 2), None, (0,)),
    ((3, 2, 2), (3, 2), 1, (1,)),
    ((3, 2, 2), (2,), (0, 2), (0, 2)),
])
def test_batch_normalization(x_shape, g_shape, axis, axes):
    def make(rng, dt):
        return (rng.randn(*x_shape).astype(dt),
                rng.uniform(0.5, 1.5, g_shape).astype(dt),
                rng.randn(*g_shape).astype(dt))

    check_op(lambda x, g, b: F.batch_normalization(x, g, b, axis=axis), make,
             lambda x, g, b: _bn_ref(x, g, b, axes), bwd_tol=F16_BWD)


def test_running_statistics_updated_in_place():
    rng = numpy.random.RandomState(0)
    x = rng.randn(4, 3, 2).astype(numpy.float32)
    gamma, beta = numpy.ones(3, 'f'), numpy.zeros(3, 'f')
    rm, rv = numpy.full(3, 0.5, 'f'), numpy.ones(3, 'f')
    rm_id, rv_id = id(rm), id(rv)
    F.batch_normalization(x, gamma, beta, running_mean=rm, running_var=rv,
                          decay=0.8)
    m = 8  # samples per channel
    testing.assert_allclose(rm, 0.8 * 0.5 + 0.2 * x.mean(axis=(0, 2)))
    # The running variance takes the unbiased estimate.
    testing.assert_allclose(
        rv, 0.8 + 0.2 * x.var(axis=(0, 2)) * m / (m - 1), rtol=1e-5)
    assert id(rm) == rm_id and id(rv) == rv_id
    assert rm.dtype == numpy.float32


def test_single_sample_warns_and_var_correction_uses_max():
    x = numpy.array([[1., 2.]], 'f')
    rv = numpy.ones(2, 'f')
    with pytest.warns(UserWarning, match='no more than one sample'):
        y = F.batch_normalization(x, numpy.ones(2, 'f'), numpy.zeros(2, 'f'),
                                  running_var=rv)
    testing.assert_allclose(y.array, numpy.zeros((1, 2)))
    testing.assert_allclose(rv, [0.9, 0.9])


def test_same_in_test_mode():
    rng = numpy.random.RandomState(1)
    x, g, b = rng.randn(3, 2), rng.randn(2), rng.randn(2)
    y1 = F.batch_normalization(x, g, b).array
    with chainer.using_config('train', False):
        y2 = F.batch_normalization(x, g, b).array
    testing.assert_allclose(y1, y2)


def test_creator_and_grad_creator():
    x = chainer.Variable(numpy.random.RandomState(2).randn(3, 2))
    y = F.batch_normalization(x, numpy.ones(2), numpy.zeros(2))
    assert y.creator.label == 'BatchNormalization'
    gx, = chainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    assert type(gx.creator).__name__ == 'BatchNormalizationGrad'


def test_empty_batch():
    x = numpy.zeros((0, 2), 'f')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        y = F.batch_normalization(x, numpy.ones(2, 'f'), numpy.zeros(2, 'f'))
    assert y.shape == (0, 2)


def test_errors():
    x = numpy.ones((3, 2), 'f')
    g = numpy.ones(2, 'f')
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.batch_normalization(x, g, g, train=True)
    with pytest.raises(TypeError, match="unexpected keyword argument.*'foo'"):
        F.batch_normalization(x, g, g, foo=1)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.batch_normalization(x.astype('i'), g, g)
    with pytest.raises(InvalidType,
                       match=r'in_types\[1\].dtype == in_types\[2\].dtype'):
        F.batch_normalization(x, g, g.astype('d'))
    # Chainer's text: the first mismatching dimension, by input index
    with pytest.raises(InvalidType, match=r'Expect: in_types\[0\].shape\[1\]'
                       r' == in_types\[1\].shape\[0\]\nActual: 2 != 1$'):
        F.batch_normalization(x, g[:1], g[:1])
    with pytest.raises(InvalidType, match=r'in_types\[1\].shape == '
                       r'in_types\[2\].shape\nActual: \(2,\) != \(1,\)$'):
        F.batch_normalization(x, g, g[:1])
    with pytest.raises(InvalidType, match=r'in_types\[1\].ndim == 0\n'
                       r'Actual: 1 != 0$'):
        F.batch_normalization(x[0], g, g)
    with pytest.raises(InvalidType, match='gamma.shape'):
        F.batch_normalization(x, g, g, axis=1)


@pytest.mark.parametrize('x_shape,g_shape,axis,axes', [
    ((3, 2, 2), (2,), None, (0, 2)),
    ((3, 2, 2), (3, 2), 1, (1,)),
])
def test_fixed_batch_normalization(x_shape, g_shape, axis, axes):
    def make(rng, dt):
        return (rng.randn(*x_shape).astype(dt),
                rng.uniform(0.5, 1.5, g_shape).astype(dt),
                rng.randn(*g_shape).astype(dt),
                rng.randn(*g_shape).astype(dt),
                rng.uniform(0.5, 1.5, g_shape).astype(dt))

    def ref(x, g, b, m, v):
        keep = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        return (x - m.reshape(keep)) / numpy.sqrt(v.reshape(keep) + 2e-5) * \
            g.reshape(keep) + b.reshape(keep)

    check_op(lambda *a: F.fixed_batch_normalization(*a, axis=axis), make, ref,
             bwd_tol=F16_BWD)


def test_fixed_batch_normalization_errors():
    x = numpy.ones((3, 2), 'f')
    g = numpy.ones(2, 'f')
    with pytest.raises(InvalidType, match=r'in_types\[3\].shape == '
                       r'in_types\[1\].shape\nActual: \(1,\) != \(2,\)$'):
        F.fixed_batch_normalization(x, g, g, g[:1], g)
    with pytest.raises(InvalidType, match=r'in_types\[4\].dtype == '
                       r'in_types\[1\].dtype'):
        F.fixed_batch_normalization(x, g, g, g, g.astype('d'))
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.fixed_batch_normalization(x.astype('i'), g, g, g, g)
    y = F.fixed_batch_normalization(x, g, g, g, g)
    assert y.creator.label == 'FixedBatchNormalization'



def test_fixed_batch_normalization_mixed_dtypes_without_type_check():
    # as Chainer: the dtype checks are type checks; with them off the mix
    # computes (gradient_check's numerical evaluations rely on it)
    x = numpy.arange(6, dtype='f').reshape(2, 3) / 7
    g, b = numpy.full(3, 1.5), numpy.full(3, .25, 'f')
    m, v = numpy.full(3, .1, 'f'), numpy.full(3, .7, 'f')
    with pytest.raises(InvalidType, match=r'in_types\[1\].dtype == '
                       r'in_types\[2\].dtype'):
        F.fixed_batch_normalization(x, g, b, m, v)
    with chainer.using_config('type_check', False):
        y = F.fixed_batch_normalization(x, g, b, m, v)
    assert y.dtype == numpy.float32
    expect = 1.5 * (x - m.astype('d')) / numpy.sqrt(v.astype('d') + 2e-5)
    numpy.testing.assert_allclose(y.array, expect + .25, rtol=1e-6)


def test_fixed_batch_normalization_float16_statistics_float32_x():
    # 1 / (var + eps) and its root round in the statistics' float16, as in
    # Chainer 7.8.1 (its values)
    x = numpy.arange(6, dtype='f').reshape(2, 3) / 7
    g, b, m, v = (numpy.full(3, c, 'e') for c in (1.5, .25, .1, .7))
    y = F.fixed_batch_normalization(x, g, b, m, v)
    assert y.dtype == numpy.float32
    assert y.array[0].tolist() == [
        0.07074689865112305, 0.32688531279563904, 0.5830236673355103]

def test_second_order_through_gbeta_and_ggamma_only():
    rng = numpy.random.RandomState(3)
    x = chainer.Variable(rng.randn(3, 2))
    g, b = chainer.Variable(rng.randn(2)), chainer.Variable(rng.randn(2))
    w = chainer.Variable(rng.randn(3, 2))
    y = F.batch_normalization(x, g, b)
    _, gg, gb = chainer.grad([F.sum(y * w)], [x, g, b],
                             enable_double_backprop=True)
    gw, = chainer.grad([F.sum(gb)], [w])
    testing.assert_allclose(gw.array, numpy.ones((3, 2)))
    gw, = chainer.grad([F.sum(gg)], [w])
    xhat = (x.array - x.array.mean(0)) / numpy.sqrt(x.array.var(0) + 2e-5)
    testing.assert_allclose(gw.array, xhat)


def test_bits_match_chainer_order(monkeypatch):
    # Rounding orders checked against Chainer 7.8.1, on NumPy alone (the C
    # loops round otherwise: test_c_loops_close_to_float64).
    monkeypatch.setattr(conv_nd, '_loops', None)
    rs = numpy.random.RandomState(0)
    f = numpy.float32
    x = rs.randn(6, 5).astype(f)
    g = (rs.rand(5) + 0.5).astype(f)
    b = rs.randn(5).astype(f)
    v = chainer.Variable(x)
    y = F.batch_normalization(v, g, b)
    mean, var = x.mean(axis=0), x.var(axis=0)
    inv = f(1) / numpy.sqrt(var + f(2e-5))
    xh = (x - mean) * inv
    numpy.testing.assert_array_equal(y.array, g * xh + b)
    gy = rs.randn(6, 5).astype(f)
    y.grad = gy
    y.backward()
    gb, gg = gy.sum(axis=0), (gy * xh).sum(axis=0)
    numpy.testing.assert_array_equal(
        v.grad, (g * inv) * (gy - (xh * gg + gb) * f(1. / 6)))
    m2 = rs.randn(5).astype(f)
    v2 = (rs.rand(5) + 0.1).astype(f)
    for dt in (numpy.float16, numpy.float32, numpy.float64):
        a = [t.astype(dt) for t in (x, g, b, m2, v2)]
        inv2 = numpy.sqrt(dt(1) / (a[4] + dt(2e-5)))
        numpy.testing.assert_array_equal(
            F.fixed_batch_normalization(*a).array,
            a[1] * ((a[0] - a[3]) * inv2) + a[2])


def test_small_inputs_round_as_chainer():
    # Chainer 7.8.1's bits (float32 NumPy arithmetic) for inputs below
    # _LOOPS_MIN_SIZE, even where the C loops would apply.
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(3, 5).astype(numpy.float32))
    g = rs.randn(5).astype(numpy.float32)
    b = rs.randn(5).astype(numpy.float32)
    y = F.batch_normalization(x, g, b)
    assert y.array[0].tolist() == [
        -2.121917486190796, -1.2020353078842163, 0.6761699318885803,
        -0.3011009097099304, 1.0621485710144043]


def _bn64(x, g, b, gy, axes, eps=2e-5):
    """y, gx, ggamma, gbeta of batch normalization in float64."""
    x, g, b, gy = (numpy.asarray(a, numpy.float64) for a in (x, g, b, gy))
    keep = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    g, b = g.reshape(keep), b.reshape(keep)
    xc = x - x.mean(axis=axes, keepdims=True)
    inv = 1 / numpy.sqrt((xc * xc).mean(axis=axes, keepdims=True) + eps)
    xh = xc * inv
    gb = gy.sum(axis=axes, keepdims=True)
    gg = (gy * xh).sum(axis=axes, keepdims=True)
    m = x.size // g.size
    gx = g * inv * (gy - (xh * gg + gb) / m)
    return g * xh + b, gx, gg.reshape(-1), gb.reshape(-1)


@pytest.mark.parametrize('native', [True, False])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape,g_shape', [
    ((7, 5, 6, 9), (5,)), ((3, 4, 37), (4, 37)), ((8, 3), (3,)),
    ((2, 3, 1, 1), (3,))])
def test_c_loops_close_to_float64(monkeypatch, native, dtype, shape,
                                  g_shape):
    # The C loops (and NumPy without them) against float64, with a mean
    # far from zero; the same bits from run to run.
    if not native:
        monkeypatch.setattr(conv_nd, '_loops', None)
    else:  # the C loops at every size
        monkeypatch.setattr(bn_module, '_LOOPS_MIN_SIZE', 0)
    rs = numpy.random.RandomState(1)
    x = (rs.randn(*shape) * 0.5 + 10).astype(dtype)
    g = (rs.rand(*g_shape) + 0.5).astype(dtype)
    b = rs.randn(*g_shape).astype(dtype)
    gy = rs.randn(*shape).astype(dtype)
    axes = (0,) + tuple(range(1 + len(g_shape), len(shape)))
    want = _bn64(x, g, b, gy, axes)
    got = []
    for _ in range(2):
        v, gv, bv = (chainer.Variable(a) for a in (x, g, b))
        y = F.batch_normalization(v, gv, bv)
        y.grad = gy
        y.backward()
        got.append((y.array, v.grad, gv.grad.reshape(-1),
                    bv.grad.reshape(-1)))
        assert y.dtype == v.grad.dtype == gv.grad.dtype == dtype
    tol = dict(rtol=1e-3, atol=1e-3) if dtype == numpy.float32 else {}
    for a, w in zip(got[0], want):
        testing.assert_allclose(a, w, **tol)
    for a, a2 in zip(*got):
        assert a.tobytes() == a2.tobytes()


@pytest.mark.parametrize('x_dtype,p_dtype', [
    (numpy.float16, numpy.float32), (numpy.float64, numpy.float32),
    (numpy.float32, numpy.float64)])
def test_mixed_dtypes_double_backward(x_dtype, p_dtype):
    # x in one float dtype, gamma/beta in another (mixed precision): the
    # output and every gradient keep their inputs' dtypes, to all orders,
    # and match a float64 computation.
    rng = numpy.random.RandomState(0)
    x64 = rng.randn(5, 3)
    g64 = rng.uniform(0.5, 1.5, 3)
    b64 = rng.randn(3)

    def run(x, g, b):
        x, g, b = (chainer.Variable(a) for a in (x, g, b))
        y = F.batch_normalization(x, g, b)
        gx, gg = chainer.grad([F.sum(y * y * y)], [x, g],
                              enable_double_backprop=True)
        (F.sum(gx * gx) + F.cast(F.sum(gg), gx.dtype)).backward()
        return y, gx, gg, x.grad, g.grad, b.grad

    got = run(x64.astype(x_dtype), g64.astype(p_dtype), b64.astype(p_dtype))
    ref = run(x64, g64, b64)
    assert [v.dtype for v in got] == [x_dtype, x_dtype, p_dtype, x_dtype,
                                      p_dtype, p_dtype]
    tol = 5e-2 if numpy.float16 in (x_dtype, p_dtype) else 1e-4
    for a, r in zip(got, ref):
        a = a.array if isinstance(a, chainer.Variable) else a
        r = r.array if isinstance(r, chainer.Variable) else r
        numpy.testing.assert_allclose(a.astype('d'), r, rtol=tol, atol=tol)


def test_fixed_mixed_dtypes_backward():
    # float16 x with float32 statistics and parameters, as in Chainer
    rng = numpy.random.RandomState(1)
    x = chainer.Variable(rng.randn(4, 3).astype(numpy.float16))
    g, b, m = (chainer.Variable(rng.randn(3).astype(numpy.float32))
               for _ in range(3))
    v = chainer.Variable(rng.uniform(0.5, 1.5, 3).astype(numpy.float32))
    y = F.fixed_batch_normalization(x, g, b, m, v)
    assert y.dtype == numpy.float16
    F.sum(y).backward()
    assert x.grad.dtype == numpy.float16
    assert all(p.grad.dtype == numpy.float32 for p in (g, b, m, v))
    inv = 1 / numpy.sqrt(v.array + 2e-5)
    numpy.testing.assert_allclose(
        x.grad, numpy.broadcast_to(g.array * inv, (4, 3)), rtol=1e-2)
    numpy.testing.assert_allclose(b.grad, [4, 4, 4])


def test_float16_statistics_and_gradients_in_float16_as_chainer():
    # x and gamma both float16: Chainer's promoted dtype is float16, so its
    # mean, var and the backward sums round in float16 (values of 7.8.1)
    x = (numpy.arange(24, dtype=numpy.float16).reshape(4, 3, 2) *
         numpy.float16(0.37)) % 2.3
    x = chainer.Variable(x.astype(numpy.float16))
    g = chainer.Variable(numpy.ones(3, numpy.float16))
    b = chainer.Variable(numpy.zeros(3, numpy.float16))
    rm, rv = numpy.zeros(3, numpy.float16), numpy.ones(3, numpy.float16)
    y = F.batch_normalization(x, g, b, running_mean=rm, running_var=rv)
    assert y.dtype == numpy.float16
    assert y.array[0].tolist() == [[-0.98046875, -0.58935546875],
                                   [-0.3154296875, 1.4814453125],
                                   [-0.3173828125, 1.478515625]]
    assert rm.tolist() == [0.0927734375, 0.08050537109375, 0.154541015625]
    assert rv.tolist() == [1.001953125, 0.90478515625, 0.90478515625]
    F.sum(y * y.array).backward()
    assert x.grad[0].tolist() == [[0.0, 0.0], [0.0023708343505859375,
                                               0.00948333740234375],
                                  [0.007106781005859375,
                                   0.01421356201171875]]
    assert g.grad.tolist() == [8.0, 7.99609375, 7.9921875]
    assert b.grad.tolist() == [0.0, -0.005126953125, -0.013916015625]
