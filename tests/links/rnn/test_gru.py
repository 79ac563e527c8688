import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check
from link_harness import check_copies, check_params, fill, roundtrip_npz, seq, to64


GRU_PARAMS = {'/W/W': (2, 3), '/W/b': (2,), '/U/W': (2, 2), '/U/b': (2,),
              '/W_r/W': (2, 3), '/W_r/b': (2,), '/U_r/W': (2, 2),
              '/U_r/b': (2,), '/W_z/W': (2, 3), '/W_z/b': (2,),
              '/U_z/W': (2, 2), '/U_z/b': (2,)}


@pytest.mark.parametrize('cls', [L.GRU, L.StatefulGRU, L.StatelessGRU])
def test_params(cls):
    gru = cls(3, 2)
    check_params(gru, GRU_PARAMS)
    assert (gru.U.b.array == 0).all()


def test_initializers():
    gru = L.StatelessGRU(3, 2, init=1., inner_init=2., bias_init=3.)
    assert (gru.W_z.W.array == 1).all() and (gru.U_r.W.array == 2).all()
    assert (gru.W.b.array == 3).all()


@pytest.mark.parametrize('cls', [L.GRU, L.StatefulGRU])
def test_stateful_matches_reference(cls):
    gru = cls(3, 2)
    fill(gru)
    y1 = gru(seq((2, 3), 0))
    y2 = gru(seq((2, 3), 1))
    numpy.testing.assert_allclose(y1.array, [[0.29091, -0.2051],
                                             [0.383962, -0.574923]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(y2.array, [[0.574305, -0.673967],
                                             [0.602335, -0.594101]],
                                  atol=2e-6)
    assert gru.h is y2


def test_stateless_matches_reference():
    gru = L.StatelessGRU(3, 2)
    fill(gru)
    y = gru(seq((2, 2), 5), seq((2, 3), 6))
    numpy.testing.assert_allclose(y.array, [[-0.169693, -0.436538],
                                            [0.192568, -0.611149]], atol=2e-6)


def test_gru_rejects_two_arguments():
    gru = L.GRU(3, 2)
    with pytest.raises(ValueError, match='StatelessGRU'):
        gru(numpy.zeros((1, 2), 'f'), numpy.zeros((1, 3), 'f'))
    with pytest.raises(ValueError, match='must be 1. But 0 is given'):
        gru()


def test_state():
    gru = L.StatefulGRU(3, 2)
    h = chainer.Variable(numpy.ones((1, 2), 'f'))
    gru.set_state(h)
    assert gru.h is h
    with pytest.raises(TypeError, match='chainer.Variable'):
        gru.set_state(numpy.ones((1, 2), 'f'))
    gru.reset_state()
    assert gru.h is None


def test_stateless_gradients():
    gru = L.StatelessGRU(3, 2)
    params = to64(gru)
    rng = numpy.random.RandomState(0)
    gradient_check.check_backward(
        gru, (rng.uniform(-1, 1, (2, 2)), rng.uniform(-1, 1, (2, 3))),
        rng.uniform(-1, 1, (2, 2)), params=params, eps=1e-3, atol=1e-5,
        rtol=1e-4)


def test_stateful_gradients():
    gru = L.StatefulGRU(3, 2)
    params = to64(gru)

    def f(x1, x2):
        gru.reset_state()
        gru(x1)
        return gru(x2)

    rng = numpy.random.RandomState(1)
    gradient_check.check_backward(
        f, (rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 3))),
        rng.uniform(-1, 1, (2, 2)), params=params, eps=1e-3, atol=1e-5,
        rtol=1e-4)


def test_serialize_and_copy(tmp_path):
    roundtrip_npz(L.GRU(3, 2), L.StatelessGRU(3, 2), tmp_path)
    check_copies(L.GRU(3, 2))
