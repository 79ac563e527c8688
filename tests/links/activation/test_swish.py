import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.Swish((3,))
    check_params(link, {'/beta': (3,)})
    numpy.testing.assert_array_equal(link.beta.array, [1, 1, 1])
    link = L.Swish(None)
    check_params(link, {'/beta': None})
    assert link(numpy.ones((2, 3, 4), numpy.float32)).shape == (2, 3, 4)
    assert link.beta.shape == (3, 4)


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Swish((2,), beta_init=0.7)
    numpy.testing.assert_allclose(link(R(0, 2, 2)).array.ravel(), [
        1.366548, 0.227919, 0.650743, 1.854535], rtol=1e-5)
    check_param_grads(link, (R(0, 3, 2),), R(3, 3, 2))
