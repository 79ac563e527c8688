import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check
from link_harness import check_params, fill, roundtrip_npz, seq, to64


@pytest.mark.parametrize('cls', [L.StatefulMGU, L.StatelessMGU])
def test_params(cls):
    check_params(cls(3, 2), {'/W_f/W': (2, 5), '/W_f/b': (2,),
                             '/W_h/W': (2, 5), '/W_h/b': (2,)})


def test_stateful_matches_reference():
    mgu = L.StatefulMGU(3, 2)
    fill(mgu)
    y1 = mgu(seq((2, 3), 0))
    y2 = mgu(seq((2, 3), 1))
    numpy.testing.assert_allclose(y1.array, [[-0.243334, -0.273091],
                                             [-0.327021, -0.140818]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(y2.array, [[-0.430818, -0.291578],
                                             [-0.520371, -0.154701]],
                                  atol=2e-6)


def test_stateless_is_the_cell():
    # f = sigmoid(W_f [h, x]); h_bar = tanh(W_h [f h, x]);
    # h' = f h_bar + (1 - f) h
    mgu = L.StatelessMGU(3, 2)
    fill(mgu)
    h, x = seq((2, 2), 1), seq((2, 3), 2)
    sig = lambda v: 1 / (1 + numpy.exp(-v))  # noqa: E731
    W_f, b_f = mgu.W_f.W.array, mgu.W_f.b.array
    W_h, b_h = mgu.W_h.W.array, mgu.W_h.b.array
    f = sig(numpy.concatenate([h, x], 1) @ W_f.T + b_f)
    h_bar = numpy.tanh(numpy.concatenate([f * h, x], 1) @ W_h.T + b_h)
    numpy.testing.assert_allclose(mgu(h, x).array,
                                  f * h_bar + (1 - f) * h, rtol=1e-5)


def test_state():
    mgu = L.StatefulMGU(3, 2)
    y = mgu(numpy.ones((4, 3), 'f'))
    assert y.shape == (4, 2) and mgu.h is y
    h = chainer.Variable(numpy.zeros((1, 2), 'f'))
    mgu.set_state(h)
    assert mgu.h is h
    with pytest.raises(TypeError):
        mgu.set_state(None)
    mgu.reset_state()
    assert mgu.h is None


def test_gradients():
    mgu = L.StatelessMGU(3, 2)
    params = to64(mgu)
    rng = numpy.random.RandomState(0)
    gradient_check.check_backward(
        mgu, (rng.uniform(-1, 1, (2, 2)), rng.uniform(-1, 1, (2, 3))),
        rng.uniform(-1, 1, (2, 2)), params=params, eps=1e-3, atol=1e-5,
        rtol=1e-4)


def test_serialize(tmp_path):
    roundtrip_npz(L.StatefulMGU(3, 2), L.StatelessMGU(3, 2), tmp_path)
