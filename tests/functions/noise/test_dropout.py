import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.noise.dropout import Dropout
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


def test_mask_matches_the_global_generator():
    x = numpy.arange(1, 9, dtype=numpy.float32).reshape(2, 4)
    numpy.random.seed(0)
    y, mask = F.dropout(x, 0.6, return_mask=True)
    assert isinstance(y.creator, Dropout)
    numpy.random.seed(0)
    expected = (numpy.random.rand(2, 4) >= 0.6) * numpy.float32(1 / 0.4)
    assert mask.dtype == numpy.float32
    numpy.testing.assert_allclose(mask, expected)
    numpy.testing.assert_allclose(y.array, x * expected)
    numpy.random.seed(0)
    numpy.testing.assert_array_equal(F.dropout(x, 0.6).array, y.array)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_mask_dtype_and_values(dtype):
    x = numpy.ones((50,), dtype)
    y, mask = F.dropout(x, 0.25, return_mask=True)
    assert y.dtype == dtype and mask.dtype == dtype
    assert set(numpy.unique(mask).tolist()) <= {0.0, float(dtype(4 / 3))}


@pytest.mark.parametrize('shape', [(3, 2), ()])
def test_gradients_with_a_fixed_mask(shape):
    mask = numpy.random.RandomState(1).choice([0., 2.], shape)
    check_op(lambda x: F.dropout(x, mask=on_device(mask.astype(x.dtype))),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),),
             lambda x: x * mask)


def test_backward_uses_the_same_mask():
    x = chainer.Variable(numpy.ones((3, 4), numpy.float32))
    y = F.dropout(x, 0.5)
    y.grad = numpy.ones((3, 4), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, y.array)


def test_test_mode_is_identity():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with chainer.using_config('train', False):
        y, mask = F.dropout(x, 0.5, return_mask=True)
        assert F.dropout(x) is x
    assert y is x and mask is None


def test_ratio_zero_and_empty():
    x = numpy.ones((2, 3), numpy.float32)
    y, mask = F.dropout(x, 0.0, return_mask=True)
    numpy.testing.assert_array_equal(y.array, x)
    numpy.testing.assert_array_equal(mask, numpy.ones((2, 3)))
    assert F.dropout(numpy.zeros((0, 3), numpy.float32)).shape == (0, 3)


def test_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='train argument'):
        F.dropout(x, train=False)
    with pytest.raises(TypeError, match="'foo'"):
        F.dropout(x, foo=1)
    with pytest.raises(ValueError, match=r'range \[0, 1\)'):
        F.dropout(x, 1.0)
    with pytest.raises(ValueError, match=r'range \[0, 1\)'):
        F.dropout(x, -0.1)
    with pytest.raises(ValueError, match='mask'):
        F.dropout(x, mask=numpy.ones((2, 2), numpy.float32))
    with pytest.raises(InvalidType, match='Dropout'):
        F.dropout(x.astype(numpy.int32))
