import numpy

import chainer
import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.DeformableConvolution2D(3, 2, 3, pad=1)
    check_params(link, {'/offset_conv/W': (18, 3, 3, 3),
                        '/offset_conv/b': (18,),
                        '/deform_conv/W': (2, 3, 3, 3),
                        '/deform_conv/b': (2,)})
    assert str(link) == (
        'DeformableConvolution2D(\n'
        '  (deform_conv): DeformableConvolution2DSampler(),\n'
        '  (offset_conv): Convolution2D(in_channels=3, out_channels=18, '
        'ksize=3, stride=(1, 1), pad=(1, 1), nobias=False, dilate=(1, 1), '
        'groups=1),\n)')
    link = L.DeformableConvolution2D(None, 2, (2, 3), deform_nobias=True)
    assert link(numpy.ones((1, 3, 4, 4), numpy.float32)).shape == \
        (1, 2, 3, 2)
    check_params(link, {'/offset_conv/W': (12, 3, 2, 3),
                        '/offset_conv/b': (12,),
                        '/deform_conv/W': (2, 3, 2, 3)})


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.DeformableConvolution2D(
        2, 2, 2, offset_initialW=R(1, 8, 2, 2, 2) * 0.3,
        offset_initial_bias=R(2, 8), deform_initialW=R(3, 2, 2, 2, 2),
        deform_initial_bias=R(4, 2))
    y = link(R(0, 1, 2, 3, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.20728, 0.050562, 0.573138, 0.78755, -0.137276, 0.499951, 0.389264,
        1.252992], rtol=1e-4, atol=1e-5)
    # Gradients of the sampling convolution (the offsets are kept away from
    # the bilinear kinks by a zero offset convolution).
    link = L.DeformableConvolution2D(2, 2, 2, offset_initialW=0.,
                                     offset_initial_bias=0.25,
                                     deform_initial_bias=R(4, 2))
    check_param_grads(link.deform_conv,
                      (R(0, 1, 2, 3, 3),
                       numpy.full((1, 8, 2, 2), 0.25, numpy.float32)),
                      R(5, 1, 2, 2, 2))


def test_deform_weight_default_zero_without_random_draws():
    # Chainer 7.8.1 draws nothing for deform_conv.W by default (it stays 0),
    # so the random stream after construction must match.
    numpy.random.seed(7)
    link = L.DeformableConvolution2D(1, 1, 2)
    after = numpy.random.randn(2)
    numpy.testing.assert_array_equal(link.deform_conv.W.array, 0)
    numpy.random.seed(7)
    numpy.random.randn(32)  # offset_conv.W: (2 * 2 * 2, 1, 2, 2)
    numpy.testing.assert_array_equal(after, numpy.random.randn(2))
    numpy.random.seed(7)
    given = L.DeformableConvolution2D(
        1, 1, 2, deform_initialW=chainer.initializers.Constant(2.0))
    numpy.testing.assert_array_equal(given.deform_conv.W.array, 2.0)
