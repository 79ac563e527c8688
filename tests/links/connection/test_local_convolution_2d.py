import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.LocalConvolution2D(3, 2, in_size=5, ksize=3, stride=2)
    check_params(link, {'/W': (2, 2, 2, 3, 3, 3), '/b': (2, 2, 2)})
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros((2, 2, 2)))
    link = L.LocalConvolution2D(3, 2, ksize=3, foo=1)
    check_params(link, {'/W': None, '/b': None})
    assert link(numpy.ones((1, 3, 4, 5), numpy.float32)).shape == \
        (1, 2, 2, 3)
    check_params(link, {'/W': (2, 2, 3, 3, 3, 3), '/b': (2, 2, 3)})
    link = L.LocalConvolution2D(3, 2, in_size=5, ksize=3, nobias=True)
    check_params(link, {'/W': (2, 3, 3, 3, 3, 3)})


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.LocalConvolution2D(2, 2, in_size=3, ksize=2,
                                initialW=R(1, 2, 2, 2, 2, 2, 2),
                                initial_bias=R(2, 2, 2, 2))
    y = link(R(0, 1, 2, 3, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [
        0.275527, 3.616019, -3.856872, 3.356864, -3.943242, -4.80022,
        2.158064, 0.568852], rtol=1e-5, atol=1e-6)
    check_param_grads(link, (R(0, 1, 2, 3, 3),), R(3, 1, 2, 2, 2))
