import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from link_harness import check_param_grads, check_params, roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_attributes():
    link = L.Deconvolution2D(2, 4, 3, groups=2, stride=2, outsize=(5, 5))
    check_params(link, {'/W': (2, 2, 3, 3), '/b': (4,)})
    assert link.stride == (2, 2) and link.outsize == (5, 5)
    assert L.Deconvolution2D(1, 2, 3).outsize == (None, None)
    with pytest.raises(ValueError, match='output channels'):
        L.Deconvolution2D(4, 3, 2, groups=2)


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Deconvolution2D(2, 1, 2, stride=2, initialW=R(1, 2, 1, 2, 2),
                             initial_bias=R(2, 1))
    y = link(R(0, 1, 2, 2, 2))
    assert y.shape == (1, 1, 4, 4)
    numpy.testing.assert_allclose(y.array.ravel(), [
        4.064871, -5.794186, -0.612508, 1.587686, 1.910057, -3.731129,
        -2.333276, -0.102203, 1.995265, -3.202172, 3.092241, -1.439284,
        0.724026, -2.190127, -1.864424, -2.705952], rtol=1e-5, atol=1e-6)


def test_lazy_outsize_and_gradients():
    link = L.Deconvolution2D(3, 2)
    assert link.out_channels == 3
    y = link(numpy.ones((1, 2, 4, 4), numpy.float32))
    assert y.shape == (1, 3, 5, 5) and link.W.shape == (2, 3, 2, 2)
    link = L.Deconvolution2D(2, 4, 3, groups=2, stride=2, outsize=(6, 6))
    assert link(numpy.ones((1, 2, 2, 2), numpy.float32)).shape == \
        (1, 4, 6, 6)
    link = L.Deconvolution2D(2, 2, 2, initial_bias=R(2, 2))
    x = R(0, 1, 2, 2, 2)
    numpy.testing.assert_allclose(
        link(x).array, F.deconvolution_2d(x, link.W, link.b).array)
    check_param_grads(link, (x,), R(3, 1, 2, 3, 3))


def test_serialize(tmp_path):
    roundtrip_npz(L.Deconvolution2D(2, 3, 2), L.Deconvolution2D(3, 2),
                  tmp_path)
