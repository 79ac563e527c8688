import numpy
import pytest

import chainer.links as L
from link_harness import check_param_grads, check_params, roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params():
    check_params(L.ConvolutionND(3, 2, 4, (1, 2, 3)),
                 {'/W': (4, 2, 1, 2, 3), '/b': (4,)})
    link = L.Convolution1D(2, 4, 3, groups=2, nobias=True)
    check_params(link, {'/W': (4, 1, 3)})
    assert link.ksize == (3,) and link.dilate == (1,)
    check_params(L.Convolution3D(2, 4, 2), {'/W': (4, 2, 2, 2, 2),
                                            '/b': (4,)})
    with pytest.raises(ValueError, match='input channels'):
        L.ConvolutionND(2, 3, 4, 2, groups=2)


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Convolution1D(2, 2, 2, initialW=R(1, 2, 2, 2))
    y = link(R(0, 1, 2, 4))
    numpy.testing.assert_allclose(y.array.ravel(), [
        2.682829, -0.452, -0.12048, 4.608095, -4.334684, -2.537555],
        rtol=1e-5, atol=1e-6)


def test_lazy_and_3d():
    link = L.ConvolutionND(2, 4, 3)
    assert link.out_channels == 4 and link.ksize == (3, 3)
    assert link(numpy.ones((1, 2, 5, 5), numpy.float32)).shape == \
        (1, 4, 3, 3)
    assert link.W.shape == (4, 2, 3, 3)
    link = L.Convolution3D(1, 2, 2, pad=1, cover_all=True)
    assert link(numpy.ones((1, 1, 2, 2, 2), numpy.float32)).shape == \
        (1, 2, 3, 3, 3)


def test_from_params():
    link = L.ConvolutionND.from_params(R(1, 4, 2, 3, 1, 1), dilate=2,
                                       groups=2)
    assert type(link) is L.ConvolutionND
    assert link.W.shape == (4, 2, 3, 1, 1) and link.dilate == (2, 2, 2)
    link = L.Convolution1D.from_params(R(1, 4, 2, 3), stride=2)
    assert type(link) is L.Convolution1D and link.stride == 2
    with pytest.raises(ValueError, match='out_channels'):
        L.ConvolutionND.from_params(R(1, 4, 2, 3), R(2, 3))


def test_gradients_and_serialize(tmp_path):
    link = L.Convolution1D(2, 2, 2, initial_bias=R(2, 2))
    check_param_grads(link, (R(0, 2, 2, 4),), R(3, 2, 2, 3))
    src = L.Convolution3D(1, 2, 2)
    roundtrip_npz(src, L.ConvolutionND(3, None, 2, 2), tmp_path)
