import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.DilatedConvolution2D(2, 4, 3, dilate=2)
    check_params(link, {'/W': (4, 2, 3, 3), '/b': (4,)})
    assert link.dilate == (2, 2) and link.stride == (1, 1)
    link = L.DilatedConvolution2D(3, 2, dilate=2)
    assert link(numpy.ones((1, 2, 4, 4), numpy.float32)).shape == \
        (1, 3, 2, 2)
    assert link.W.shape == (3, 2, 2, 2)


def test_forward_matches_reference_and_gradients():
    # Expected value from Chainer 7.8.1 with the same arrays.
    link = L.DilatedConvolution2D(1, 1, 2, dilate=2,
                                  initialW=R(1, 1, 1, 2, 2))
    y = link(R(0, 1, 1, 3, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [1.875622], rtol=1e-5)
    link = L.DilatedConvolution2D(1, 2, 2, dilate=2, pad=1,
                                  initial_bias=R(2, 2))
    check_param_grads(link, (R(0, 1, 1, 3, 3),), R(3, 1, 2, 3, 3))
