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
