import numpy

import chainer
import chainer.links as L
from chainer import gradient_check
from link_harness import check_params, fill, roundtrip_npz, seq, to64


def test_params():
    check_params(L.StatefulPeepholeLSTM(3, 2), {
        '/upward/W': (8, 3), '/upward/b': (8,), '/lateral/W': (8, 2),
        '/peep_i/W': (2, 2), '/peep_f/W': (2, 2), '/peep_o/W': (2, 2)})


def test_matches_reference():
    lstm = L.StatefulPeepholeLSTM(3, 2)
    fill(lstm)
    y1 = lstm(seq((2, 3), 0))
    y2 = lstm(seq((2, 3), 1))
    numpy.testing.assert_allclose(y1.array, [[0.119157, 0.03509],
                                             [0.087379, 0.096798]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(y2.array, [[0.141448, 0.110623],
                                             [0.071083, 0.135407]],
                                  atol=2e-6)
    assert lstm.h is y2 and lstm.c.shape == (2, 2)
    lstm.reset_state()
    assert lstm.h is None and lstm.c is None


def test_gradients():
    lstm = L.StatefulPeepholeLSTM(3, 2)
    params = to64(lstm)

    def f(x1, x2):
        lstm.reset_state()
        lstm(x1)
        return lstm(x2)

    rng = numpy.random.RandomState(0)
    gradient_check.check_backward(
        f, (rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 3))),
        rng.uniform(-1, 1, (2, 2)), params=params, eps=1e-3, atol=1e-5,
        rtol=1e-4)


def test_serialize(tmp_path):
    src = L.StatefulPeepholeLSTM(3, 2)
    src(numpy.ones((1, 3), 'f'))
    roundtrip_npz(src, L.StatefulPeepholeLSTM(3, 2), tmp_path)
    assert isinstance(src.h, chainer.Variable)
