import numpy
import pytest

import chainer.links as L
from chainer import gradient_check
from link_harness import check_params, fill, roundtrip_npz, seq, to64


def test_params():
    check_params(L.ChildSumTreeLSTM(3, 2), {
        '/W_x/W': (8, 3), '/W_x/b': (8,), '/W_h_aio/W': (6, 2),
        '/W_h_f/W': (2, 2)})
    check_params(L.NaryTreeLSTM(3, 2, n_ary=3), {
        '/W_x/W': (12, 3), '/W_x/b': (12,), '/W_h1/W': (12, 2),
        '/W_h2/W': (12, 2), '/W_h3/W': (12, 2)})


def test_child_sum_matches_reference():
    tree = L.ChildSumTreeLSTM(3, 2)
    fill(tree)
    c1, h1 = tree(seq((2, 3), 0))  # a leaf
    c, h = tree(c1, seq((2, 2), 7), h1, seq((2, 2), 8), seq((2, 3), 1))
    numpy.testing.assert_allclose(c1.array, [[-0.365296, -0.092729],
                                             [-0.62032, -0.072936]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(h1.array, [[-0.230778, -0.061242],
                                             [-0.359867, -0.058076]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(c.array, [[-0.235964, 0.135171],
                                            [-0.265107, 0.171466]], atol=2e-6)
    numpy.testing.assert_allclose(h.array, [[-0.183283, 0.114703],
                                            [-0.178844, 0.139621]], atol=2e-6)


def test_child_sum_skips_missing_children():
    tree = L.ChildSumTreeLSTM(3, 2)
    x, c1, h1 = seq((2, 3), 0), seq((2, 2), 1), seq((2, 2), 2)
    one = tree(c1, h1, x)
    with_none = tree(c1, None, h1, None, x)
    numpy.testing.assert_allclose(one[0].array, with_none[0].array)
    numpy.testing.assert_allclose(one[1].array, with_none[1].array)


def test_nary_matches_reference():
    tree = L.NaryTreeLSTM(3, 2, 2)
    fill(tree)
    c1, h1 = tree(None, None, None, None, seq((2, 3), 0))
    c, h = tree(c1, None, h1, None, seq((2, 3), 1))
    numpy.testing.assert_allclose(c1.array, [[-0.365296, -0.092729],
                                             [-0.62032, -0.072936]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(c.array, [[-0.791519, -0.13243],
                                            [-0.895614, -0.194344]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(h.array, [[-0.409888, -0.103951],
                                            [-0.404372, -0.148063]],
                                  atol=2e-6)


def test_argument_errors():
    x = numpy.ones((1, 3), 'f')
    with pytest.raises(ValueError, match='2 \\* n_ary \\+ 1'):
        L.NaryTreeLSTM(3, 2)(x, x, x)
    with pytest.raises(ValueError, match='odd'):
        L.ChildSumTreeLSTM(3, 2)(numpy.ones((1, 2), 'f'), x)


@pytest.mark.parametrize('cls', [L.ChildSumTreeLSTM, L.NaryTreeLSTM])
def test_gradients(cls):
    tree = cls(3, 2)
    params = to64(tree)
    rng = numpy.random.RandomState(0)
    inputs = tuple(rng.uniform(-1, 1, (2, 2)) for _ in range(4)) + (
        rng.uniform(-1, 1, (2, 3)),)
    grads = tuple(rng.uniform(-1, 1, (2, 2)) for _ in range(2))
    gradient_check.check_backward(tree, inputs, grads, params=params,
                                  eps=1e-3, atol=1e-5, rtol=1e-4)


def test_serialize(tmp_path):
    roundtrip_npz(L.NaryTreeLSTM(3, 2), L.NaryTreeLSTM(3, 2), tmp_path)


@pytest.mark.parametrize('make', [
    lambda: L.ChildSumTreeLSTM(3, 4), lambda: L.NaryTreeLSTM(3, 4, n_ary=2)])
def test_none_x_counts_as_zeros(make):
    # as in Chainer: x None is zeros; every input None is a ValueError
    link = make()
    rng = numpy.random.RandomState(0)
    c1, c2, h1, h2 = (rng.randn(2, 4).astype(numpy.float32) for _ in range(4))
    c, h = link(c1, c2, h1, h2, None)
    ce, he = link(c1, c2, h1, h2, numpy.zeros((2, 3), numpy.float32))
    numpy.testing.assert_array_equal(c.array, ce.array)
    numpy.testing.assert_array_equal(h.array, he.array)
    with pytest.raises(ValueError, match='all the inputs'):
        link(None, None, None, None, None)
