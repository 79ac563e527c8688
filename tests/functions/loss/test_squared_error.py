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
