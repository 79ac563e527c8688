import numpy
import pytest

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_learned_scale_with_bias():
    link = L.Scale(W_shape=(2,), bias_term=True)
    check_params(link, {'/W': (2,), '/bias/b': (2,)})
    numpy.testing.assert_array_equal(link.W.array, [1, 1])
    link.W.array[...] = R(1, 2)
    link.bias.b.array[...] = R(2, 2)
    # Expected values from Chainer 7.8.1 with the same arrays.
    numpy.testing.assert_allclose(link(R(0, 2, 2, 2)).array.ravel(), [
        2.448673, 0.233236, -0.655016, -1.427148, 2.616802, -2.004195,
        -0.637489, 0.036327], rtol=1e-5)
    check_param_grads(link, (R(0, 2, 2, 2),), R(3, 2, 2, 2))


def test_scale_as_input():
    link = L.Scale(bias_term=True, bias_shape=(3,))
    check_params(link, {'/bias/b': (3,)})
    x = numpy.ones((2, 3, 4), numpy.float32)
    y = link(x, numpy.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(y.array[0, :, 0], [0, 1, 2])
    assert str(link) == 'Scale(\n  (bias): Bias(),\n)'
    y = L.Scale()(x, numpy.full(3, 2, numpy.float32))
    numpy.testing.assert_array_equal(y.array, 2 * x)
    with pytest.raises(ValueError, match='bias_shape'):
        L.Scale(bias_term=True)
