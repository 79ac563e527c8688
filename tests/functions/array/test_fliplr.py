import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(2, 3), (2, 3, 2), (2, 0)])
def test_fliplr(shape):
    check_op(F.fliplr, lambda rng, dt: (rng.randn(*shape).astype(dt),),
             numpy.fliplr)


def test_fliplr_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.fliplr(x).creator).__name__ == 'FlipLR'
    with pytest.raises(InvalidType, match='a.ndim >= 2'):
        F.fliplr(numpy.zeros(3, numpy.float32))
