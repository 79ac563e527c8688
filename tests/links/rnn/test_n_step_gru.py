import numpy

import chainer.links as L
from chainer import gradient_check
from link_harness import fill, seq, to64


def xs_():
    return [seq((3, 3), 0), seq((4, 3), 1), seq((1, 3), 2)]


def test_params():
    gru = L.NStepGRU(2, 3, 4, 0.1)
    names = dict((n, p.shape) for n, p in gru.namedparams())
    assert len(names) == 24 and names['/0/w2'] == (4, 3)
    assert names['/0/w3'] == (4, 4) and names['/1/w0'] == (4, 4)
    bi = L.NStepBiGRU(2, 3, 4, 0.1)
    names = dict((n, p.shape) for n, p in bi.namedparams())
    assert len(names) == 48 and names['/2/w0'] == (4, 8)
    assert gru.n_cells == 1 and gru.n_weights == 6


def test_bigru_matches_reference():
    gru = L.NStepBiGRU(1, 3, 2, 0.0)
    fill(gru)
    hy, ys = gru(None, xs_())
    numpy.testing.assert_allclose(hy.array, [
        [[-0.585904, -0.589585], [0.035621, -0.504618],
         [-0.273573, -0.398431]],
        [[-0.220059, -0.555959], [-0.091459, -0.745096],
         [-0.054061, -0.515398]]], atol=2e-6)
    numpy.testing.assert_allclose(ys[0].array, [
        [-0.260659, -0.104761, -0.220059, -0.555959],
        [-0.494824, -0.403295, -0.170645, -0.7374],
        [-0.585904, -0.589585, -0.074182, -0.5641]], atol=2e-6)
    numpy.testing.assert_allclose(ys[2].array, [
        [-0.273573, -0.398431, -0.054061, -0.515398]], atol=2e-6)


def test_gru_shapes():
    hy, ys = L.NStepGRU(2, 3, 4, 0.0)(None, xs_())
    assert hy.shape == (2, 3, 4)
    assert [y.shape for y in ys] == [(3, 4), (4, 4), (1, 4)]


def test_gradients():
    gru = L.NStepBiGRU(1, 2, 2, 0.0)
    params = to64(gru)
    rng = numpy.random.RandomState(0)

    def f(hx, x1, x2):
        hy, ys = gru(hx, [x1, x2])
        return (hy,) + tuple(ys)

    inputs = (rng.uniform(-1, 1, (2, 2, 2)), rng.uniform(-1, 1, (2, 2)),
              rng.uniform(-1, 1, (3, 2)))
    grads = (rng.uniform(-1, 1, (2, 2, 2)), rng.uniform(-1, 1, (2, 4)),
             rng.uniform(-1, 1, (3, 4)))
    gradient_check.check_backward(f, inputs, grads, params=params, eps=1e-3,
                                  atol=1e-5, rtol=1e-4)
