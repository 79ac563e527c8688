import numpy
import pytest

from chainer import initializers as I
from chainer.initializers import constant


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64, numpy.int32])
def test_constant_family(dtype):
    for init, value in [(I.Constant(3), 3), (I.Zero(), 0), (I.One(), 1)]:
        a = numpy.full((2, 3), 7, dtype)
        init(a)
        assert (a == value).all() and a.dtype == dtype


def test_nan_and_broadcast_array():
    a = numpy.empty((2, 2), numpy.float32)
    I.NaN()(a)
    assert numpy.isnan(a).all()
    I.Constant(numpy.arange(2.))(a)
    numpy.testing.assert_array_equal(a, [[0, 1], [0, 1]])
    assert I.Constant(numpy.arange(2.)).dtype is None
    with pytest.raises(ValueError):
        I.Constant(numpy.arange(3.))(a)


def test_dtype_checks():
    init = I.Constant(1, dtype=numpy.float64)
    assert init.dtype == numpy.float64
    with pytest.raises(ValueError, match='^$'):   # Chainer's bare assert
        init(numpy.empty(2, numpy.float32))
    with pytest.raises(AssertionError):
        I.Zero(numpy.float16)(numpy.empty(2, numpy.float32))


def test_identity():
    a = numpy.empty((3, 3), numpy.float32)
    I.Identity(2.0)(a)
    numpy.testing.assert_array_equal(a, 2 * numpy.eye(3))
    for shape in [(2, 3), (2, 2, 2), (2,)]:
        with pytest.raises(ValueError, match='2D squared'):
            I.Identity()(numpy.empty(shape))


def test_module():
    assert constant.Constant is I.Constant


def test_fixed_value_initializers_layout():
    # Chainer: Zero/One/NaN carry fill_value as a class attribute and are not
    # Constant subclasses; instances hold only their dtype.
    assert (I.Zero.fill_value, I.One.fill_value) == (0.0, 1.0)
    assert numpy.isnan(I.NaN.fill_value)
    assert not issubclass(I.Zero, I.Constant)
    assert vars(I.One(numpy.float32)) == {'dtype': numpy.dtype(numpy.float32)}
    a = numpy.empty(2, numpy.float16)
    I.One()(a)
    numpy.testing.assert_array_equal(a, [1, 1])
