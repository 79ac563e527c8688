import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.DepthwiseConvolution2D(2, 3, 2)
    check_params(link, {'/W': (3, 2, 2, 2), '/b': (6,)})
    link = L.DepthwiseConvolution2D(None, 3, 2)
    check_params(link, {'/W': None, '/b': None})
    assert link(numpy.ones((1, 2, 4, 4), numpy.float32)).shape == \
        (1, 6, 3, 3)
    check_params(link, {'/W': (3, 2, 2, 2), '/b': (6,)})
    assert L.DepthwiseConvolution2D(None, 3, 2, nobias=True).b is None


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.DepthwiseConvolution2D(2, 2, 2, initialW=R(1, 2, 2, 2, 2),
                                    initial_bias=R(2, 4))
    y = link(R(0, 1, 2, 3, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [
        -0.983534, -0.303316, 1.741328, 3.405351, -0.164257, 4.571232,
        1.893901, 0.774606, -0.877135, -5.484178, -2.312732, -0.289411,
        2.181578, 0.685059, 0.083154, 3.350166], rtol=1e-5, atol=1e-6)
    link = L.DepthwiseConvolution2D(2, 2, 2, initial_bias=R(2, 4))
    check_param_grads(link, (R(0, 1, 2, 3, 3),), R(3, 1, 4, 2, 2))
