import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 4), (), (2, 1, 3)])
def test_mean_squared_error(shape):
    check_op(F.mean_squared_error,
             lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),
                              numpy.asarray(rng.randn(*shape), dt)),
             lambda a, b: ((a - b) ** 2).mean())


def test_creator_and_empty():
    x = numpy.ones((2, 3), numpy.float32)
    y = F.mean_squared_error(x, x * 3)
    assert type(y.creator).__name__ == 'MeanSquaredError'
    assert y.array == 4 and y.dtype == numpy.float32
    e = numpy.zeros((0,), numpy.float32)
    assert numpy.isnan(F.mean_squared_error(e, e).array)


def test_errors():
    a = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(InvalidType, match='x0.shape == x1.shape'):
        F.mean_squared_error(a, a[:1])
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.mean_squared_error(a, a.astype(numpy.float64))
    with pytest.raises(InvalidType, match='x0.dtype.kind == f'):
        F.mean_squared_error(a.astype(numpy.int32), a.astype(numpy.int32))


def test_mixed_dtypes_without_type_check():
    # as Chainer: with type_check off the mean is of the promoted dtype
    import chainer
    x0 = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    x1 = numpy.array([[1.1, 0.4, -0.35]], numpy.float32)
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.mean_squared_error(x0, x1)
    with chainer.using_config('type_check', False):
        y = F.mean_squared_error(x0, x1)
        z = F.mean_absolute_error(x1, numpy.array([[0.9, -0.2, 0.45]]))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, 3.8497531, rtol=1e-6)
    assert z.dtype == numpy.float64
    numpy.testing.assert_allclose(z.array, 0.5333333412806193, rtol=1e-12)
