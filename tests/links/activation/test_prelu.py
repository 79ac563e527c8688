import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params():
    check_params(L.PReLU(), {'/W': ()})
    link = L.PReLU((3,), init=0.1)
    numpy.testing.assert_allclose(link.W.array, [0.1, 0.1, 0.1])


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.PReLU((2,), init=0.3)
    numpy.testing.assert_allclose(link(R(0, 2, 2)).array.ravel(), [
        1.764052, 0.400157, 0.978738, 2.240893], rtol=1e-5)
    x = numpy.array([[-2., 1.], [3., -4.]], numpy.float32)
    numpy.testing.assert_allclose(link(x).array, [[-0.6, 1.], [3., -1.2]],
                                  rtol=1e-6)
    link = L.PReLU((2,), init=0.3)
    check_param_grads(link, (numpy.array([[-2., 1.], [3., -4.]]),),
                      R(3, 2, 2))
