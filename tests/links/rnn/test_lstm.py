import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check
from link_harness import check_copies, check_params, fill, roundtrip_npz, seq


def test_params_and_gate_bias_layout():
    lstm = L.LSTM(3, 2)
    check_params(lstm, {'/upward/W': (8, 3), '/upward/b': (8,),
                        '/lateral/W': (8, 2)})
    # gates interleaved a, i, f, o: the forget bias (1) is every 4th from 2
    numpy.testing.assert_array_equal(lstm.upward.b.array,
                                     [0, 0, 1, 0, 0, 0, 1, 0])
    assert lstm.state_size == 2
    assert lstm.h is None and lstm.c is None


def test_initializers():
    lstm = L.LSTM(3, 2, lateral_init=2., upward_init=3., bias_init=4.,
                  forget_bias_init=5.)
    assert (lstm.lateral.W.array == 2).all()
    assert (lstm.upward.W.array == 3).all()
    numpy.testing.assert_array_equal(lstm.upward.b.array,
                                     [4, 4, 5, 4, 4, 4, 5, 4])


def test_lazy_init():
    lstm = L.LSTM(None, 2)
    assert lstm.upward.W.array is None
    y = lstm(numpy.ones((1, 2, 2), 'f'))  # flattened to 4 features
    assert y.shape == (1, 2)
    assert lstm.upward.W.shape == (8, 4)
    assert lstm.upward.b.array[2] == 1
    one = L.LSTM(5)
    assert one.state_size == 5 and one.upward.W.array is None


def test_forward_matches_reference():
    lstm = L.LSTM(3, 2)
    fill(lstm)
    y1 = lstm(seq((3, 3), 0))
    y2 = lstm(seq((2, 3), 1))  # the batch shrinks: the third row is kept
    numpy.testing.assert_allclose(y1.array, [[-0.052778, -0.047919],
                                             [-0.031429, -0.19465],
                                             [-0.020816, -0.190199]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(y2.array, [[-0.068064, -0.218434],
                                             [-0.049958, -0.292929]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(lstm.c.array, [[-0.182491, -0.627733],
                                                 [-0.120146, -0.900445],
                                                 [-0.050307, -0.542591]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(lstm.h.array[2], [-0.020816, -0.190199],
                                  atol=2e-6)


def test_batch_grows_error_and_zero_batch():
    lstm = L.LSTM(3, 2)
    lstm(numpy.ones((2, 3), 'f'))
    with pytest.raises(TypeError, match='batch size of x'):
        lstm(numpy.ones((3, 3), 'f'))
    h = lstm.h
    y = lstm(numpy.ones((0, 3), 'f'))
    assert y.shape == (0, 2) and lstm.h is h


def test_state_management():
    lstm = L.LSTM(3, 2)
    c = chainer.Variable(numpy.ones((1, 2), 'f'))
    h = chainer.Variable(numpy.zeros((1, 2), 'f'))
    lstm.set_state(c, h)
    assert lstm.c is c and lstm.h is h
    with pytest.raises(AssertionError):  # Chainer asserts
        lstm.set_state(numpy.ones((1, 2), 'f'), h)
    lstm.reset_state()
    assert lstm.c is None and lstm.h is None


def test_stateless_matches_reference():
    lstm = L.StatelessLSTM(3, 2)
    fill(lstm)
    c, h = lstm(seq((2, 2), 2), seq((2, 2), 3), seq((2, 3), 4))
    numpy.testing.assert_allclose(c.array, [[0.173244, 0.745659],
                                            [-0.218791, 0.298374]], atol=2e-6)
    numpy.testing.assert_allclose(h.array, [[0.081602, 0.486036],
                                            [-0.098385, 0.243959]], atol=2e-6)
    c0, h0 = lstm(None, None, seq((2, 3), 4))
    assert c0.shape == (2, 2) and h0.dtype == numpy.float32


def test_gradients_reach_parameters():
    lstm = L.StatelessLSTM(3, 2)
    fill(lstm)
    params = tuple(p for _, p in sorted(lstm.namedparams()))
    for p in params:
        p.array = p.array.astype(numpy.float64)

    def f(c, h, x):
        return lstm(c, h, x)

    rng = numpy.random.RandomState(0)
    inputs = tuple(rng.uniform(-1, 1, s) for s in [(2, 2), (2, 2), (2, 3)])
    grads = tuple(rng.uniform(-1, 1, (2, 2)) for _ in range(2))
    gradient_check.check_backward(f, inputs, grads, params=params, eps=1e-3,
                                  atol=1e-5, rtol=1e-4)


def test_stateful_backprop_through_time():
    lstm = L.LSTM(3, 2)
    lstm.cleargrads()  # parameters start with NaN gradients, as Chainer's
    loss = chainer.functions.sum(lstm(seq((2, 3), 0)) + lstm(seq((2, 3), 1)))
    loss.backward()
    for _, p in lstm.namedparams():
        assert p.grad is not None and numpy.abs(p.grad).sum() > 0


def test_serialize_and_copy(tmp_path):
    src = L.LSTM(3, 2)
    dst = L.LSTM(3, 2)
    roundtrip_npz(src, dst, tmp_path)
    check_copies(src)
    lazy = L.LSTM(None, 2)
    roundtrip_npz(src, lazy, tmp_path)  # shapes come from the file
    assert lazy.upward.W.shape == (8, 3)


def test_to_device_moves_state():
    lstm = L.LSTM(3, 2)
    lstm(numpy.ones((1, 3), 'f'))
    lstm.to_device('@numpy')
    assert isinstance(lstm.h.array, numpy.ndarray)


def test_float64_input_with_float64_params():
    lstm = L.LSTM(3, 2)
    for p in lstm.params():
        p.array = p.array.astype(numpy.float64)
    y = lstm(numpy.ones((1, 3)))
    assert y.dtype == numpy.float64 and lstm.c.dtype == numpy.float64


def test_lstm_init_draw_order_matches_chainer():
    # Chainer fills gate by gate, the lateral slice then the upward slice;
    # seeded programs depend on that order of random draws.
    count = [0]

    def counting(array):
        count[0] += 1
        array[...] = count[0]

    lstm = L.LSTM(3, 2, lateral_init=counting, upward_init=counting)
    numpy.testing.assert_array_equal(
        lstm.lateral.W.array[:, 0], [1, 1, 3, 3, 5, 5, 7, 7])
    numpy.testing.assert_array_equal(
        lstm.upward.W.array[:, 0], [2, 2, 4, 4, 6, 6, 8, 8])
    count[0] = 0
    lazy = L.LSTM(None, 2, lateral_init=counting, upward_init=counting)
    numpy.testing.assert_array_equal(lazy.lateral.W.array, 0)
    lazy(numpy.ones((1, 3), numpy.float32))
    numpy.testing.assert_array_equal(
        lazy.upward.W.array[:, 0], [2, 2, 4, 4, 6, 6, 8, 8])
