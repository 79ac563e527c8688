import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params():
    link = L.DeconvolutionND(2, 2, 4, 3, groups=2, stride=2)
    check_params(link, {'/W': (2, 2, 3, 3), '/b': (4,)})
    assert link.ksize == (3, 3) and link.stride == 2
    check_params(L.Deconvolution1D(2, 4, 3, nobias=True), {'/W': (2, 4, 3)})
    check_params(L.Deconvolution3D(2, 4, 1), {'/W': (2, 4, 1, 1, 1),
                                              '/b': (4,)})


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Deconvolution1D(2, 1, 2, initialW=R(1, 2, 1, 2))
    y = link(R(0, 1, 2, 3))
    numpy.testing.assert_allclose(
        y.array.ravel(), [1.681854, -3.819976, -0.142651, 0.449839],
        rtol=1e-5, atol=1e-6)


def test_lazy_outsize_and_gradients():
    link = L.DeconvolutionND(2, None, 4, 3)
    assert link(numpy.ones((1, 2, 5, 5), numpy.float32)).shape == \
        (1, 4, 7, 7)
    assert link.W.shape == (2, 4, 3, 3)
    link = L.Deconvolution3D(2, 4, 3, stride=2, outsize=(4, 4, 4))
    assert link(numpy.ones((1, 2, 1, 1, 1), numpy.float32)).shape == \
        (1, 4, 4, 4, 4)
    link = L.Deconvolution1D(2, 2, 2, initial_bias=R(2, 2))
    check_param_grads(link, (R(0, 2, 2, 3),), R(3, 2, 2, 4))
