import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('axis,start', [(2, 0), (2, 1), (0, 3), (-1, -2),
                                        (0, -3), (1, 1), (1, 2)])
def test_rollaxis(axis, start):
    check_op(lambda x: F.rollaxis(x, axis, start),
             lambda rng, dt: (rng.randn(2, 3, 4).astype(dt),),
             lambda x: numpy.rollaxis(x, axis, start))


def test_rollaxis_errors():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    assert type(F.rollaxis(x, 1).creator).__name__ == 'Rollaxis'
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.rollaxis(x, 3)
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.rollaxis(x, -4)
    with pytest.raises(InvalidType, match='x.ndim >= 4'):
        F.rollaxis(x, 0, 4)
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.rollaxis(x, 0, -4)
    with pytest.raises(TypeError, match='axis must be int'):
        F.rollaxis(x, 1.0)
