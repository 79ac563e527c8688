import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check
from link_harness import check_copies, fill, roundtrip_npz, seq, to64


def xs_():
    return [seq((3, 3), 0), seq((4, 3), 1), seq((1, 3), 2)]


def test_params_named_as_chainer():
    lstm = L.NStepLSTM(2, 3, 4, 0.1)
    names = dict((n, p.shape) for n, p in lstm.namedparams())
    assert len(names) == 32
    assert names['/0/w0'] == (4, 3) and names['/0/w4'] == (4, 4)
    assert names['/1/w0'] == (4, 4) and names['/1/b7'] == (4,)
    bi = L.NStepBiLSTM(2, 3, 4, 0.1)
    names = dict((n, p.shape) for n, p in bi.namedparams())
    assert len(names) == 64 and len(bi) == 4
    assert names['/1/w3'] == (4, 3) and names['/2/w0'] == (4, 8)
    assert names['/3/w7'] == (4, 4)
    assert (lstm[0].b0.array == 0).all()
    assert lstm.ws[1][7] is lstm[1].w7 and lstm.bs[0][0] is lstm[0].b0
    assert (lstm.n_layers, lstm.dropout, lstm.out_size, lstm.direction,
            lstm.n_cells, bi.direction) == (2, 0.1, 4, 1, 2, 2)


def test_initializers():
    lstm = L.NStepLSTM(1, 3, 4, 0., initialW=2., initial_bias=1.)
    assert (lstm[0].w5.array == 2).all() and (lstm[0].b3.array == 1).all()


def test_default_weight_scale():
    lstm = L.NStepLSTM(1, 400, 50, 0.)
    assert abs(lstm[0].w0.array.std() - (1 / 400) ** 0.5) < 0.005
    assert abs(lstm[0].w4.array.std() - (1 / 50) ** 0.5) < 0.02


def test_matches_reference():
    lstm = L.NStepLSTM(2, 3, 2, 0.0)
    fill(lstm)
    hy, cy, ys = lstm(None, None, xs_())
    numpy.testing.assert_allclose(hy.array, [
        [[-0.034726, 0.342003], [0.065278, -0.109234], [-0.027162, 0.18736]],
        [[-0.066908, -0.017701], [-0.066439, 0.02595],
         [-0.042759, 0.007491]]], atol=2e-6)
    numpy.testing.assert_allclose(cy.array[0], [
        [-0.059049, 0.799785], [0.227592, -0.306717], [-0.045776, 0.378058]],
        atol=2e-6)
    assert [y.shape for y in ys] == [(3, 2), (4, 2), (1, 2)]
    numpy.testing.assert_allclose(ys[1].array, [
        [-0.041184, 0.003167], [-0.06179, -0.00907], [-0.070474, -0.00156],
        [-0.066439, 0.02595]], atol=2e-6)
    hy, cy, ys = lstm(seq((2, 3, 2), 9), seq((2, 3, 2), 10), xs_())
    numpy.testing.assert_allclose(hy.array[0], [
        [-0.04037, 0.232449], [0.073495, -0.132635], [-0.179427, -0.162109]],
        atol=2e-6)
    numpy.testing.assert_allclose(cy.array[1], [
        [-0.297349, -0.119763], [-0.150456, 0.0294], [-0.001961, 0.201666]],
        atol=2e-6)
    numpy.testing.assert_allclose(ys[0].array, [
        [-0.210318, -0.192648], [-0.200782, -0.099371],
        [-0.144206, -0.068175]], atol=2e-6)


def test_bidirectional_shapes():
    bi = L.NStepBiLSTM(2, 3, 2, 0.0)
    hy, cy, ys = bi(None, None, xs_())
    assert hy.shape == (4, 3, 2) and cy.shape == (4, 3, 2)
    assert [y.shape for y in ys] == [(3, 4), (4, 4), (1, 4)]


def test_init_hx():
    lstm = L.NStepLSTM(2, 3, 4, 0.1)
    hx = lstm.init_hx([numpy.zeros((2, 3), 'f')])
    assert hx.shape == (2, 1, 4) and (hx.array == 0).all()


def test_kwargs_errors():
    with pytest.raises(ValueError, match='use_cudnn'):
        L.NStepLSTM(1, 3, 4, 0.1, use_cudnn=True)
    with pytest.raises(ValueError, match='use_bi_direction'):
        L.NStepLSTM(1, 3, 4, 0.1, use_bi_direction=True)
    with pytest.raises(ValueError, match='activation'):
        L.NStepLSTM(1, 3, 4, 0.1, activation='relu')
    with pytest.raises(TypeError, match='foo'):
        L.NStepLSTM(1, 3, 4, 0.1, foo=1)
    lstm = L.NStepLSTM(1, 3, 4, 0.1)
    with pytest.raises(ValueError, match='train argument'):
        lstm(None, None, [numpy.zeros((2, 3), 'f')], train=True)
    with pytest.raises(TypeError, match='foo'):
        lstm(None, None, [numpy.zeros((2, 3), 'f')], foo=True)
    with pytest.raises(AssertionError):  # Chainer asserts xs is a list
        lstm(None, None, numpy.zeros((2, 3), 'f'))


def test_gradients():
    lstm = L.NStepLSTM(1, 2, 2, 0.0)
    params = to64(lstm)
    rng = numpy.random.RandomState(0)

    def f(hx, cx, x1, x2):
        hy, cy, ys = lstm(hx, cx, [x1, x2])
        return (hy, cy) + tuple(ys)

    inputs = (rng.uniform(-1, 1, (1, 2, 2)), rng.uniform(-1, 1, (1, 2, 2)),
              rng.uniform(-1, 1, (2, 2)), rng.uniform(-1, 1, (3, 2)))
    grads = (rng.uniform(-1, 1, (1, 2, 2)), rng.uniform(-1, 1, (1, 2, 2)),
             rng.uniform(-1, 1, (2, 2)), rng.uniform(-1, 1, (3, 2)))
    gradient_check.check_backward(f, inputs, grads, params=params, eps=1e-3,
                                  atol=1e-5, rtol=1e-4)


def test_copy_and_serialize(tmp_path):
    lstm = L.NStepLSTM(2, 3, 4, 0.1)
    check_copies(lstm)
    c = lstm.copy()
    assert c.ws[0][0] is c[0].w0 and c.ws[0][0] is not lstm.ws[0][0]
    roundtrip_npz(lstm, L.NStepLSTM(2, 3, 4, 0.1), tmp_path)


def test_dropout_in_train_mode_only():
    lstm = L.NStepLSTM(2, 3, 4, 0.5)
    xs = [numpy.ones((3, 3), 'f')]
    with chainer.using_config('train', False):
        a = lstm(None, None, xs)[0].array
        b = lstm(None, None, xs)[0].array
    numpy.testing.assert_array_equal(a, b)
