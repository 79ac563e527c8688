import numpy
import pytest

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.GroupNormalization(2, 4)
    check_params(link, {'/gamma': (4,), '/beta': (4,)})
    numpy.testing.assert_array_equal(link.gamma.array, numpy.ones(4))
    assert (link.groups, link.eps) == (2, 1e-5)
    link = L.GroupNormalization(2)
    check_params(link, {'/gamma': None, '/beta': None})
    link(R(0, 2, 4, 3))
    check_params(link, {'/gamma': (4,), '/beta': (4,)})
    with pytest.raises(ValueError, match='divisible'):
        L.GroupNormalization(2)(numpy.ones((2, 3, 2), numpy.float32))


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.GroupNormalization(2, 4, initial_gamma=R(1, 4),
                                initial_beta=R(2, 4))
    y = link(R(0, 2, 4, 2))
    numpy.testing.assert_allclose(y.array.ravel(), [
        0.542439, -2.586642, 0.261029, -0.829529, -2.843803, -1.451,
        1.11529, 2.210778, -2.004274, -0.59704, 0.286575, -1.064891,
        -2.927579, -1.465102, 1.50644, 2.018465], rtol=1e-4, atol=1e-5)
    check_param_grads(link, (R(0, 2, 4, 2),), R(3, 2, 4, 2))
