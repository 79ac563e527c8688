import numpy
import pytest

import chainer.links as L
from chainer import gradient_check
from chainer.links.rnn import n_step_rnn
from link_harness import fill, seq, to64


def xs_():
    return [seq((3, 3), 0), seq((4, 3), 1), seq((1, 3), 2)]


@pytest.mark.parametrize('cls,bi', [
    (L.NStepRNNTanh, False), (L.NStepRNNReLU, False),
    (L.NStepBiRNNTanh, True), (L.NStepBiRNNReLU, True)])
def test_params_and_shapes(cls, bi):
    rnn = cls(2, 3, 4, 0.0)
    names = dict((n, p.shape) for n, p in rnn.namedparams())
    d = 2 if bi else 1
    assert len(names) == 4 * 2 * d
    assert names['/0/w0'] == (4, 3) and names['/0/w1'] == (4, 4)
    assert names['/{}/w0'.format(d)] == (4, 4 * d)
    assert rnn.use_bi_direction is bi and rnn.n_cells == 1
    hy, ys = rnn(None, xs_())
    assert hy.shape == (2 * d, 3, 4)
    assert [y.shape for y in ys] == [(3, 4 * d), (4, 4 * d), (1, 4 * d)]


def test_tanh_matches_reference():
    rnn = L.NStepRNNTanh(1, 3, 2, 0.0)
    fill(rnn)
    hy, ys = rnn(None, xs_())
    numpy.testing.assert_allclose(hy.array, [
        [[-0.06229, 0.459493], [0.855084, 0.062483], [-0.005328, 0.265429]]],
        atol=2e-6)
    numpy.testing.assert_allclose(ys[1].array, [
        [-0.312842, 0.440208], [-0.112851, 0.400899], [0.59865, 0.222323],
        [0.855084, 0.062483]], atol=2e-6)


def test_bi_relu_matches_reference():
    rnn = L.NStepBiRNNReLU(1, 3, 2, 0.0)
    fill(rnn)
    hy, ys = rnn(None, xs_())
    numpy.testing.assert_allclose(hy.array, [
        [[0., 0.415668], [1.260081, 0.052556], [0., 0.27194]],
        [[0.506299, 0.], [1.173829, 0.], [0.705515, 0.]]], atol=2e-6)
    numpy.testing.assert_allclose(ys[0].array, [
        [0.363618, 0.531, 0.506299, 0.], [0., 0.531562, 1.147016, 0.],
        [0., 0.415668, 0.825302, 0.]], atol=2e-6)


def test_sort_helpers():
    lst = [[1], [1, 2, 3], [1, 2]]
    idx = n_step_rnn.argsort_list_descent(lst)
    assert list(idx) == [1, 2, 0]
    perm = n_step_rnn.permutate_list(lst, idx, inv=False)
    assert perm == [[1, 2, 3], [1, 2], [1]]
    assert n_step_rnn.permutate_list(perm, idx, inv=True) == lst


def test_gradients():
    rnn = L.NStepRNNTanh(2, 2, 2, 0.0)
    params = to64(rnn)
    rng = numpy.random.RandomState(0)

    def f(hx, x1, x2):
        hy, ys = rnn(hx, [x1, x2])
        return (hy,) + tuple(ys)

    inputs = (rng.uniform(-1, 1, (2, 2, 2)), rng.uniform(-1, 1, (2, 2)),
              rng.uniform(-1, 1, (3, 2)))
    grads = (rng.uniform(-1, 1, (2, 2, 2)), rng.uniform(-1, 1, (2, 2)),
             rng.uniform(-1, 1, (3, 2)))
    gradient_check.check_backward(f, inputs, grads, params=params, eps=1e-3,
                                  atol=1e-5, rtol=1e-4)
