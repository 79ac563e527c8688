"""generate_array and _get_initializer."""

import numpy
import pytest

import chainer
from chainer import initializers as I

NAMES = ['Constant', 'DownsamplingConvFilter', 'GlorotNormal',
         'GlorotUniform', 'HeNormal', 'HeUniform', 'Identity', 'LeCunNormal',
         'LeCunUniform', 'NaN', 'Normal', 'One', 'Orthogonal', 'Uniform',
         'UpsamplingDeconvFilter', 'Zero']


def test_exports():
    for name in NAMES:
        assert issubclass(getattr(I, name), chainer.initializer.Initializer)
    assert callable(I.generate_array)


def test_generate_array_dtypes():
    a = I.generate_array(I.Constant(2), (2, 3), numpy)
    assert a.dtype == numpy.float32 and (a == 2).all()
    assert I.generate_array(I.One(numpy.float64), 3, numpy).dtype == \
        numpy.float64
    assert I.generate_array(I.Constant(3), (2,), numpy,
                            dtype=numpy.int32).dtype == numpy.int32
    with chainer.using_config('dtype', numpy.float16):
        assert I.generate_array(I.Normal(), (2,), numpy).dtype == \
            numpy.float16
    with pytest.raises(ValueError, match='dtype mismatch'):
        I.generate_array(I.Constant(3, dtype=numpy.float64), (2,), numpy,
                         dtype=numpy.int32)


def test_generate_array_device_and_seed():
    numpy.random.seed(5)
    a = I.generate_array(I.Normal(), (4,), numpy, device='@numpy')
    numpy.random.seed(5)
    numpy.testing.assert_array_equal(
        a, numpy.random.normal(0, .05, 4).astype(numpy.float32))


def test_get_initializer():
    assert isinstance(I._get_initializer(None), I.LeCunNormal)
    assert isinstance(I._get_initializer(2), I.Constant)
    init = I._get_initializer(numpy.zeros(2))
    assert isinstance(init, I.Constant)
    f = I.Normal()
    assert I._get_initializer(f) is f
    with pytest.raises(TypeError, match='invalid type of initializer'):
        I._get_initializer(object())


def test_chainer_words_and_dtypes_as_given():
    init = I.Normal(dtype=numpy.float16)
    assert init.dtype is numpy.float16   # kept as given, as in Chainer
    assert I.Constant(1, dtype='f').dtype == 'f'
    with pytest.raises(AssertionError) as info:
        init(numpy.empty((2, 2), numpy.float32))
    assert str(info.value) == "float32 != <class 'numpy.float16'>"
    with pytest.raises(AssertionError) as info:
        I.Zero(dtype=numpy.float16)(numpy.empty(2, numpy.float32))
    assert str(info.value) == ''
    with pytest.raises(ValueError) as info:
        I.generate_array(init, (2,), numpy, dtype=numpy.float64)
    assert str(info.value) == (
        "dtype mismatch: <class 'numpy.float64'> != <class 'numpy.float16'>")
    with pytest.raises(ValueError) as info:
        I.Identity()(numpy.empty((2, 3), numpy.float32))
    assert str(info.value) == ('Identity matrix initialization can only be '
                               'used for 2D squared matrices.')
    with pytest.raises(ValueError) as info:
        I.Constant([1, 2])
    assert str(info.value) == ('fill_value must be either scalar, '
                               'numpy.ndarray, cupy.ndarray or '
                               'chainerx.ndarray.')
    with pytest.raises(ValueError) as info:
        I.HeNormal()(numpy.empty(3, numpy.float32))
    assert str(info.value) == 'shape must be of length >= 2. Actual shape: (3,)'
    with pytest.raises(ValueError) as info:
        chainer.initializer.get_fans([2, 3])
    assert str(info.value) == "shape must be tuple. Actual type: <class 'list'>"
