import numpy
import pytest

from chainer import initializers as I


def test_upsampling_even_and_odd():
    a = numpy.full((2, 2, 4, 4), 7, numpy.float32)
    I.UpsamplingDeconvFilter()(a)
    k = numpy.outer([.25, .75, .75, .25], [.25, .75, .75, .25])
    numpy.testing.assert_array_equal(a[0, 0], k)
    numpy.testing.assert_array_equal(a[1, 1], k)
    assert (a[0, 1] == 0).all() and (a[1, 0] == 0).all()
    b = numpy.empty((1, 1, 3, 3))
    I.UpsamplingDeconvFilter()(b)
    numpy.testing.assert_array_equal(b[0, 0],
                                     numpy.outer([.5, 1, .5], [.5, 1, .5]))


def test_one_input_channel_and_other_ndims():
    a = numpy.empty((2, 1, 5))
    I.UpsamplingDeconvFilter()(a)
    numpy.testing.assert_allclose(a[1, 0], [1 / 3, 2 / 3, 1, 2 / 3, 1 / 3])
    b = numpy.empty((1, 1, 2, 2, 2), numpy.float16)
    I.UpsamplingDeconvFilter()(b)
    assert (b == 0.125).all()


def test_downsampling_sums_to_one():
    a = numpy.empty((2, 2, 4, 4), numpy.float32)
    I.DownsamplingConvFilter()(a)
    numpy.testing.assert_allclose(a[0, 0].sum(), 1)
    assert a[0, 0, 0, 0] == numpy.float32(1 / 64)
    assert (a[0, 1] == 0).all()


def test_errors():
    with pytest.raises(ValueError, match='Unsupported interpolation'):
        I.UpsamplingDeconvFilter('nearest')
    with pytest.raises(ValueError, match='ksize must be all same'):
        I.DownsamplingConvFilter()(numpy.empty((1, 1, 3, 4)))
    with pytest.raises(AssertionError):
        I.UpsamplingDeconvFilter()(numpy.empty((2, 3, 4, 4)))
    with pytest.raises(AssertionError):
        I.UpsamplingDeconvFilter(dtype=numpy.float64)(
            numpy.empty((1, 1, 2, 2), numpy.float32))
