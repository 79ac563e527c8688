import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (), (0, 2)])
def test_absolute_error(shape):
    def make(rng, dt):
        a = rng.randn(*shape)
        b = a + rng.choice([-1, 1], shape) * rng.uniform(0.5, 1, shape)
        return numpy.asarray(a, dt), numpy.asarray(b, dt)
    check_op(F.absolute_error, make, lambda a, b: abs(a - b))


def test_errors():
    a = numpy.ones((2, 3), numpy.float32)
    assert type(F.absolute_error(a, a).creator).__name__ == 'AbsoluteError'
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.absolute_error(a, a.astype(numpy.float64))


def test_mixed_dtypes_without_type_check():
    # as Chainer: with type_check off the difference is promoted, its
    # absolute value cast to x0's dtype
    import chainer
    x0 = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    x1 = numpy.array([[1.1, 0.4, -0.35]], numpy.float32)
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.absolute_error(x0, x1)
    with chainer.using_config('type_check', False):
        y = F.absolute_error(x0, x1)
    assert y.dtype == numpy.float16
    assert y.array.tolist() == [[0.7998046875, 2.099609375, 2.548828125]]
