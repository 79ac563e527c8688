"""Arguments that Chainer asserted: a clear ValueError, which is also an
AssertionError, so code written against Chainer still catches it."""

import numpy
import pytest

import chainer.links as L


def _raises_both(match):
    return pytest.raises(ValueError, match=match)


def test_bilinear_initial_arrays_must_fit():
    W = numpy.zeros((3, 3, 4), numpy.float32)
    with pytest.raises(AssertionError, match=r'initialW must have shape '
                                             r'\(2, 3, 4\)'):
        L.Bilinear(2, 3, 4, initialW=W)
    good_W = numpy.zeros((2, 3, 4), numpy.float32)
    V1 = numpy.zeros((2, 4), numpy.float32)
    V2 = numpy.zeros((3, 4), numpy.float32)
    with _raises_both(r'initial_bias\[2\] \(b\) must have shape \(4,\)'):
        L.Bilinear(2, 3, 4, initialW=good_W,
                   initial_bias=(V1, V2, numpy.zeros(5, numpy.float32)))
    link = L.Bilinear(2, 3, 4, initialW=good_W,
                      initial_bias=(V1, V2, numpy.ones(4, numpy.float32)))
    numpy.testing.assert_array_equal(link.b.array, numpy.ones(4))


def test_inceptionbn_architecture_checks():
    with pytest.raises(AssertionError, match='out1 must be 0'):
        L.InceptionBN(3, 2, 2, 2, 2, 2, 'max', proj_pool=2, stride=2)
    with _raises_both('proj_pool must be given'):
        L.InceptionBN(3, 2, 2, 2, 2, 2, 'max')
    L.InceptionBN(3, 0, 2, 2, 2, 2, 'max', stride=2)  # fine


@pytest.mark.parametrize('make,args', [
    (lambda: L.Scale(1, (2,)), 2),
    (lambda: L.Scale(1, None), 1),
    (lambda: L.Bias(1, (2,)), 2),
    (lambda: L.Bias(1, None), 1),
])
def test_scale_and_bias_count_their_inputs(make, args):
    x = numpy.zeros((3, 2, 3), numpy.float32)
    w = numpy.ones(2, numpy.float32)
    with pytest.raises(AssertionError, match='takes'):
        make()(*([x, w][:args]))
