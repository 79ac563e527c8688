import numpy
import pytest

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_learned_bias():
    link = L.Bias(axis=1, shape=(2,))
    check_params(link, {'/b': (2,)})
    numpy.testing.assert_array_equal(link.b.array, [0, 0])
    link.b.array[...] = R(1, 2)
    # Expected values from Chainer 7.8.1 with the same arrays.
    numpy.testing.assert_allclose(link(R(0, 2, 2)).array.ravel(), [
        3.388398, -0.211599, 2.603083, 1.629137], rtol=1e-5)
    check_param_grads(link, (R(0, 3, 2, 2),), R(1, 3, 2, 2))
    with pytest.raises(ValueError):
        link(R(0, 2, 2), R(1, 2))


def test_bias_as_input():
    link = L.Bias()
    check_params(link, {})
    x = numpy.ones((2, 3, 4), numpy.float32)
    y = link(x, numpy.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(y.array[0, :, 0], [1, 2, 3])
    with pytest.raises(ValueError):
        link(x)
