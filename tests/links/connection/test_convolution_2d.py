import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from link_harness import (check_copies, check_param_grads, check_params,
                          roundtrip_npz)


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_attributes():
    link = L.Convolution2D(3, 4, (2, 3), stride=2, pad=1, dilate=2)
    check_params(link, {'/W': (4, 3, 2, 3), '/b': (4,)})
    assert link.stride == (2, 2) and link.pad == (1, 1)
    assert link.dilate == (2, 2) and link.groups == 1
    assert link.in_channels == 3 and link.ksize == (2, 3)
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros(4))
    check_params(L.Convolution2D(4, 6, 3, groups=2, nobias=True),
                 {'/W': (6, 2, 3, 3)})


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Convolution2D(2, 2, 2, stride=1, pad=1, initialW=R(1, 2, 2, 2, 2),
                           initial_bias=R(2, 2))
    y = link(R(0, 1, 2, 2, 2))
    assert y.shape == (1, 2, 3, 3)
    numpy.testing.assert_allclose(y.array.ravel(), [
        -3.731129, 2.224611, -2.333276, -7.567554, 4.920906, -2.060174,
        -3.202172, 0.972738, 3.092241, -5.744574, 4.890868, -0.579202,
        -4.274745, -1.761934, 3.491313, -0.665221, -0.551019, 0.707466],
        rtol=1e-5, atol=1e-6)
    link = L.Convolution2D(2, 4, 2, initialW=R(1, 4, 1, 2, 2), groups=2)
    y = link(R(0, 1, 2, 3, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [
        -0.566776, 0.113441, 2.158086, 3.822109, 3.093986, 2.096143,
        -0.586031, 3.679923, 0.957128, -1.053216, -2.377687, 2.535292,
        0.541307, -0.955212, -1.557116, 1.709895], rtol=1e-5, atol=1e-6)


def test_lazy_init_two_arguments():
    link = L.Convolution2D(2, 3)
    assert link.in_channels is None and link.out_channels == 2
    assert link.ksize == 3
    check_params(link, {'/W': None, '/b': (2,)})
    y = link(numpy.ones((1, 5, 4, 4), numpy.float32))
    assert y.shape == (1, 2, 2, 2) and link.W.shape == (2, 5, 3, 3)


def test_groups_errors():
    with pytest.raises(ValueError, match='input channels'):
        L.Convolution2D(3, 4, 2, groups=2)
    with pytest.raises(ValueError, match='output channels'):
        L.Convolution2D(4, 3, 2, groups=2)
    with pytest.raises(ValueError, match='deterministic'):
        L.Convolution2D(1, 2, 3, deterministic=True)
    with pytest.raises(TypeError, match='foo'):
        L.Convolution2D(1, 2, 3, foo=True)


def test_from_params():
    link = L.Convolution2D.from_params(R(1, 4, 1, 2, 3), stride=2, groups=2)
    assert link.W.shape == (4, 1, 2, 3) and link.in_channels == 2
    assert link.stride == (2, 2) and link.groups == 2
    with pytest.raises(ValueError, match='out_channels'):
        L.Convolution2D.from_params(R(1, 4, 1, 2, 3), R(2, 3))


def test_printable():
    assert str(L.Convolution2D(1, 2, 3)) == (
        'Convolution2D(in_channels=1, out_channels=2, ksize=3, '
        'stride=(1, 1), pad=(0, 0), nobias=False, dilate=(1, 1), groups=1)')
    assert str(L.Convolution2D(None, 3, (2, 3), stride=2, nobias=True)) == (
        'Convolution2D(in_channels=None, out_channels=3, ksize=(2, 3), '
        'stride=(2, 2), pad=(0, 0), nobias=True, dilate=(1, 1), groups=1)')


def test_same_as_function_and_gradients():
    link = L.Convolution2D(2, 2, 2, pad=1, initial_bias=R(2, 2))
    x = R(0, 1, 2, 3, 3)
    expected = F.convolution_2d(x, link.W, link.b, pad=1)
    numpy.testing.assert_allclose(link(x).array, expected.array)
    check_param_grads(link, (x,), R(3, 1, 2, 4, 4))


def test_float16_and_serialize(tmp_path):
    with chainer.using_config('dtype', numpy.float16):
        link = L.Convolution2D(1, 2, 2)
    assert link(numpy.ones((1, 1, 3, 3), numpy.float16)).dtype == \
        numpy.float16
    src = L.Convolution2D(1, 2, 2, initial_bias=1.)
    roundtrip_npz(src, L.Convolution2D(None, 2, 2), tmp_path)
    check_copies(src)


def test_lazy_input_of_a_wrong_rank_fails_as_chainer():
    # Chainer 7.8.1 unpacks the shape to find in_channels
    with pytest.raises(ValueError) as e:
        L.Convolution2D(None, 2, 3)(numpy.ones((1, 5, 5), numpy.float32))
    assert str(e.value) == 'not enough values to unpack (expected 4, got 3)'
