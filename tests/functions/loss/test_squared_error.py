import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('func', [F.squared_error, F.squared_difference])
@pytest.mark.parametrize('shape', [(3, 2), (), (0, 2)])
def test_squared_error(func, shape):
    check_op(func, lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),
                                    numpy.asarray(rng.randn(*shape), dt)),
             lambda a, b: (a - b) ** 2)


def test_creator_and_errors():
    a = numpy.ones((2, 3), numpy.float32)
    assert type(F.squared_difference(a, a).creator).__name__ == 'SquaredError'
    with pytest.raises(InvalidType, match='x0.shape == x1.shape'):
        F.squared_error(a, a[:1])
    with pytest.raises(InvalidType, match='x0.dtype.kind == f'):
        F.squared_error(a.astype(numpy.int32), a.astype(numpy.int32))


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype check is a type check; with it off the square
    # is taken promoted and cast to x0's dtype
    import chainer
    x0 = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    x1 = numpy.array([[1.1, 0.4, -0.35]], numpy.float32)
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.squared_error(x0, x1)
    with chainer.using_config('type_check', False):
        y = F.squared_error(x0, x1)
        z = F.squared_difference(x1, numpy.array([[0.9, -0.2, 0.45]]))
    assert y.dtype == numpy.float16
    assert y.array.tolist() == [[0.64013671875, 4.41015625, 6.5]]
    assert z.dtype == numpy.float32
    assert z.array.tolist() == [
        [0.040000010281801224, 0.36000001430511475, 0.6399999856948853]]
