import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3,), (2, 3), (0, 2)])
def test_flipud(shape):
    check_op(F.flipud, lambda rng, dt: (rng.randn(*shape).astype(dt),),
             numpy.flipud)


def test_flipud_errors():
    x = numpy.zeros(3, numpy.float32)
    assert type(F.flipud(x).creator).__name__ == 'FlipUD'
    with pytest.raises(InvalidType, match='a.ndim >= 1'):
        F.flipud(numpy.zeros((), numpy.float32))
