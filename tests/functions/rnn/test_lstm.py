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
