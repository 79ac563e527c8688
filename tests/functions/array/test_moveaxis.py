import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('src,dst', [(0, -1), ((0, 1), (2, 0)), ([0], [1]),
                                     (-1, 0), ((), ())])
def test_moveaxis(src, dst):
    check_op(lambda x: F.moveaxis(x, src, dst),
             lambda rng, dt: (rng.randn(2, 3, 4).astype(dt),),
             lambda x: numpy.moveaxis(x, src, dst))


def test_moveaxis_errors():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    assert type(F.moveaxis(x, 0, 1).creator).__name__ == 'Moveaxis'
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.moveaxis(x, 3, 0)
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.moveaxis(x, 0, -4)
    with pytest.raises(ValueError, match='repeated axis'):
        F.moveaxis(x, (0, 0), (1, 2))
    with pytest.raises(ValueError, match='same number'):
        F.moveaxis(x, (0, 1), (1,))
    with pytest.raises(ValueError, match='repeated axis'):
        F.moveaxis(x, (0, -3), (1, 2))
    with pytest.raises(TypeError):
        F.moveaxis(x, 0.0, 1)
