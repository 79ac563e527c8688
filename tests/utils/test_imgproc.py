import numpy
import pytest

from chainer.utils import imgproc


def test_oversample_crops_and_mirrors():
    x = numpy.arange(2 * 3 * 4 * 5, dtype=numpy.float32).reshape(2, 3, 4, 5)
    out = imgproc.oversample(x, (2, 3))
    assert out.shape == (20, 3, 2, 3) and out.dtype == numpy.float32
    img = x[0]
    expected = [img[:, :2, :3], img[:, :2, 2:], img[:, 2:, :3],
                img[:, 2:, 2:], img[:, 1:3, 1:4]]
    for i, e in enumerate(expected):
        numpy.testing.assert_array_equal(out[i], e)
        numpy.testing.assert_array_equal(out[i + 5], e[:, :, ::-1])
    numpy.testing.assert_array_equal(out[10], x[1][:, :2, :3])


def test_oversample_odd_center_and_dtype():
    x = numpy.arange(30, dtype=numpy.uint8).reshape(1, 1, 5, 6)
    out = imgproc.oversample(x, (2, 3))
    assert out.dtype == numpy.uint8
    numpy.testing.assert_array_equal(out[4, 0], x[0, 0, 1:3, 1:4])


def test_oversample_errors():
    with pytest.raises(ValueError, match='crop_dims'):
        imgproc.oversample(numpy.zeros((1, 1, 4, 4)), (5, 2))
    with pytest.raises(ValueError, match='N, C, H, W'):
        imgproc.oversample(numpy.zeros((1, 4, 4)), (2, 2))
