import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# Computed with Chainer 7.8.1: c = RandomState(1).randn(2, 2), then
# x = randn(2, 8) from the same generator.
LSTM_CN = [[1.44640965, -0.3614807], [-0.52586121, -0.59793895]]
LSTM_H = [[0.28494778, -0.03916748], [-0.12043716, -0.34369055]]


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_ref(c, x):
    b = len(x)
    r = x.reshape((b, x.shape[1] // 4, 4) + x.shape[2:])
    a, i, f, o = (r[:, :, k] for k in range(4))
    c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c[:b]
    h = _sigmoid(o) * numpy.tanh(c_new)
    return numpy.concatenate([c_new, c[b:]]), h


@pytest.mark.parametrize('c_shape,x_shape', [
    ((3, 2), (3, 8)),
    ((3, 2), (2, 8)),        # fewer rows in x: the rest of c passes
    ((2, 3, 2), (2, 12, 2)),
    ((2, 1), (0, 4)),
])
def test_lstm(c_shape, x_shape):
    def make(rng, dt):
        return (rng.randn(*c_shape).astype(dt), rng.randn(*x_shape).astype(dt))

    check_op(F.lstm, make, _lstm_ref,
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_reference_values():
    rng = numpy.random.RandomState(1)
    c, x = rng.randn(2, 2), rng.randn(2, 8)
    c_new, h = F.lstm(c, x)
    testing.assert_allclose(c_new.array, LSTM_CN, atol=1e-8)
    testing.assert_allclose(h.array, LSTM_H, atol=1e-8)
    assert c_new.creator.label == 'LSTM'


def test_first_order_fast_path_matches_graph_path():
    rng = numpy.random.RandomState(2)
    c = chainer.Variable(rng.randn(3, 2))
    x = chainer.Variable(rng.randn(2, 8))
    c_new, h = F.lstm(c, x)
    loss = F.sum(c_new * c_new) + F.sum(h * 3)
    g1 = chainer.grad([loss], [c, x])
    g2 = chainer.grad([loss], [c, x], enable_double_backprop=True)
    for a, b in zip(g1, g2):
        testing.assert_allclose(a.array, b.array)
    # Only h used: c's gradient still has its passed-through rows (zero).
    gc, = chainer.grad([F.sum(h)], [c])
    testing.assert_allclose(gc.array[2], [0., 0.])


def test_large_inputs_stay_finite():
    x = numpy.array([[1e4, -1e4, 1e4, -1e4]], 'f')
    c, h = F.lstm(numpy.ones((1, 1), 'f'), x)
    assert numpy.isfinite(c.array).all() and numpy.isfinite(h.array).all()


def test_errors():
    c = numpy.ones((3, 2), 'f')
    x = numpy.ones((3, 8), 'f')
    with pytest.raises(InvalidType, match='x.shape\\[0\\] <= c.shape\\[0\\]'):
        F.lstm(c[:2], x)
    with pytest.raises(InvalidType, match='x.shape\\[1\\] == 4 \\* c.shape'):
        F.lstm(c, x[:, :7])
    with pytest.raises(InvalidType, match='x.dtype == c.dtype'):
        F.lstm(c.astype('d'), x)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.lstm(c.astype('i'), x.astype('i'))


def _grads_for_bits(fn, *arrays):
    """Outputs and input gradients of fn, backpropagating
    sum(y * gy) with gy drawn from RandomState(7)."""
    import chainer
    vs = [chainer.Variable(a) for a in arrays]
    ys = fn(*vs)
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    rs = numpy.random.RandomState(7)
    loss = None
    for y in ys:
        t = F.sum(y * rs.randn(*y.shape).astype(y.dtype))
        loss = t if loss is None else loss + t
    loss.backward()
    return [y.array for y in ys], [v.grad for v in vs]


def test_bits_match_chainer_lstm_grad():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(3)
    c = rs.randn(3, 2).astype(numpy.float32)
    x = rs.randn(3, 8).astype(numpy.float32)
    _, (gc, gx) = _grads_for_bits(F.lstm, c, x)
    out = {'gx': gx, 'gc': gc}
    expect = {
        'gx': numpy.array([
            0.5845522880554199, -0.03166995570063591,
            0.7554877996444702, -0.00014495033246930689,
            -0.32425302267074585, 0.32619038224220276,
            -0.1647854745388031, 0.06710199266672134,
            0.0842164009809494, 0.002531615784391761,
            0.004729060921818018, 0.00815530400723219,
            0.07115629315376282, 0.09335415810346603,
            -0.22090423107147217, -0.03612443059682846,
            -0.0994877740740776, -0.21377426385879517,
            0.051815472543239594, -0.05609110742807388,
            -0.023038676008582115, -0.009971185587346554,
            0.005555258598178625, -0.006003518123179674],
            numpy.float32).reshape((3, 8)),
        'gc': numpy.array([
            0.8266592621803284, -1.288838505744934,
            0.07741323113441467, 0.15478551387786865,
            -0.25390148162841797, -0.02291812375187874],
            numpy.float32).reshape((3, 2)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype check is a type check; with it off the cell
    # keeps c's dtype, h is promoted
    c = numpy.array([[0.3]], numpy.float16)
    x = numpy.array([[1.1, 0.4, -0.35, 1.1]], numpy.float32)
    with pytest.raises(InvalidType, match='x.dtype == c.dtype'):
        F.lstm(c, x)
    with chainer.using_config('type_check', False):
        c1, h = F.lstm(c, x)
    assert c1.dtype == numpy.float16 and c1.array.tolist() == [[0.603515625]]
    assert h.dtype == numpy.float32
    assert h.array.tolist() == [[0.40480342507362366]]
