import numpy
import pytest

import chainer.links as L
from chainer import gradient_check
from chainer.utils.type_check import InvalidType
from link_harness import check_params, roundtrip_npz

TREE = ((0, 1), ((2, 3), 4))


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_tables():
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    check_params(link, {'/W': (4, 3)})
    assert numpy.abs(link.W.array).max() <= 1
    func = link._func
    assert func.parser_size == 4
    assert func.paths.tolist() == [0, 1, 0, 1, 0, 2, 3, 0, 2, 3, 0, 2]
    assert func.codes.tolist() == [1, 1, 1, -1, -1, 1, 1, -1, 1, -1, -1, -1]
    assert func.begins.tolist() == [0, 2, 4, 7, 10, 12]


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    rng = numpy.random.RandomState(0)
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    link.W.array[...] = rng.randn(4, 3)
    x = rng.randn(5, 3).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 3, 4], numpy.int32)
    loss = link(x, t)
    assert loss.shape == () and loss.dtype == numpy.float32
    numpy.testing.assert_allclose(loss.array, 16.632626, rtol=1e-5)
    link.cleargrads()
    loss.backward()
    numpy.testing.assert_allclose(link.W.grad, [
        [2.4807172, -1.3205898, -0.7042962],
        [0.18695883, 1.4371442, -0.2814384],
        [1.734889, -1.3579062, 1.1631564],
        [-0.08671625, 1.123073, 2.2433274]], rtol=1e-5, atol=1e-6)
    # The probabilities of all words sum to one.
    probs = [numpy.exp(-link(x[:1], numpy.array([w], numpy.int32)).array)
             for w in range(5)]
    numpy.testing.assert_allclose(sum(probs), 1., rtol=1e-5)


def test_forward_rounds_as_chainer():
    # Chainer 7.8.1 gives exactly 3189.864501953125 here: each example's
    # path summed in float32, the examples then added one by one (a
    # float64 total rounds to 3189.8642578125).
    rng = numpy.random.RandomState(1)
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(
        {i: int(c) for i, c in enumerate(rng.randint(1, 50, 100))})
    link = L.BinaryHierarchicalSoftmax(5, tree)
    link.W.array[...] = rng.randn(*link.W.shape)
    x = rng.randn(400, 5).astype(numpy.float32)
    t = rng.randint(0, 100, 400).astype(numpy.int32)
    assert link(x, t).array.item() == 3189.864501953125
    assert link(x[:0], t[:0]).array.item() == 0


def test_gradients_double_backward_and_errors(tmp_path):
    link = L.BinaryHierarchicalSoftmax(3, TREE, dtype=numpy.float64)
    x = R(0, 4, 3).astype(numpy.float64)
    t = numpy.array([4, 0, 2, 2], numpy.int32)
    gradient_check.check_backward(lambda x, t: link(x, t), (x, t), None,
                                  params=(link.W,), eps=1e-3, atol=1e-5)
    W = link.W.array
    gradient_check.check_double_backward(
        lambda x, W: link._func.__class__(TREE).apply((x, t, W))[0],
        (x, W), None, (R(1, 4, 3).astype(numpy.float64),
                       R(2, 4, 3).astype(numpy.float64)),
        eps=1e-3, atol=1e-4)
    with pytest.raises(InvalidType, match='BinaryHierarchicalSoftmax'):
        link(x.astype(numpy.float32), t)
    with pytest.raises(ValueError, match='labels'):
        link(x, numpy.array([0, 5, 1, 1], numpy.int32))
    roundtrip_npz(link, L.BinaryHierarchicalSoftmax(3, TREE,
                                                    dtype=numpy.float64),
                  tmp_path)


def test_create_huffman_tree():
    f = L.BinaryHierarchicalSoftmax.create_huffman_tree
    assert f({'a': 3, 'b': 1, 'c': 2, 'd': 5}) == ('d', ('a', ('b', 'c')))
    assert f({i: 1 for i in range(5)}) == ((2, 3), (4, (0, 1)))
    assert f({i: 1 for i in [3, 1, 4, 0, 2]}) == ((4, 0), (2, (3, 1)))
    assert f({'x': 1}) == 'x'
    # A merged subtree ranks as its earliest word among equal counts.
    assert f({'a': 1, 'b': 1, 'c': 2, 'd': 1, 'e': 1, 'f': 2}) == (
        (('a', 'b'), 'c'), (('d', 'e'), 'f'))
    assert f({0: 2, 1: 1, 2: 1, 3: 2}) == (3, (0, (1, 2)))
    with pytest.raises(ValueError, match='Empty'):
        f({})
    tree = f({i: i + 1 for i in range(50)})
    link = L.BinaryHierarchicalSoftmax(2, tree)
    assert link.W.shape == (49, 2)
