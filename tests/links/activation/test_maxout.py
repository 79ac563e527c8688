import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_initializers():
    link = L.Maxout(3, 2, 4)
    check_params(link, {'/linear/W': (8, 3), '/linear/b': (8,)})
    numpy.testing.assert_array_equal(link.linear.b.array, numpy.zeros(8))
    assert (link.out_size, link.pool_size) == (2, 4)
    W = numpy.arange(24, dtype=numpy.float32).reshape(3, 2, 4)
    link = L.Maxout(3, 2, 4, initialW=W, initial_bias=None)
    numpy.testing.assert_array_equal(link.linear.W.array, W.reshape(8, 3))
    assert link.linear.b is None
    with pytest.raises(ValueError, match='initialW.ndim'):
        L.Maxout(3, 2, 4, initialW=W.reshape(8, 3))
    with pytest.raises(ValueError, match='initial_bias.ndim'):
        L.Maxout(3, 2, 4, initial_bias=numpy.zeros(8, numpy.float32))


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Maxout(2, 2, 3, initialW=R(1, 2, 2, 3), initial_bias=R(2, 2, 3))
    y = link(R(0, 3, 2))
    numpy.testing.assert_allclose(y.array.ravel(), [
        2.203874, 4.413608, -0.19783, 1.642201, 3.214658, 5.642719],
        rtol=1e-5)
    x = R(0, 3, 2)
    numpy.testing.assert_array_equal(
        link(x).array, F.maxout(link.linear(x), 3).array)


def test_lazy_and_gradients():
    link = L.Maxout(None, 2, 4)
    assert link(numpy.ones((2, 3, 2), numpy.float32)).shape == (2, 2)
    assert link.linear.W.shape == (8, 6)
    link = L.Maxout(2, 2, 2, initial_bias=R(2, 2, 2))
    check_param_grads(link, (R(0, 3, 2),), R(3, 3, 2))


def test_a_plain_callable_initializer_sees_maxout_shapes():
    seen = []

    def fill(array):
        seen.append(array.shape)
        array[...] = 2

    link = L.Maxout(2, 3, 4, initialW=fill, initial_bias=fill)
    assert seen == [(3, 4, 2), (3, 4)]
    assert link.linear.W.shape == (12, 2)
    numpy.testing.assert_array_equal(link.linear.W.array, 2)
    numpy.testing.assert_array_equal(link.linear.b.array, 2)
