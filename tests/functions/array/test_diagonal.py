import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,args', [
    ((3, 3), (0, 0, 1)), ((2, 3, 4), (1, 1, 2)), ((2, 3, 4), (-1, 2, 1)),
    ((2, 3, 4), (0, -1, 0)), ((2, 3), (5, 0, 1)), ((0, 2), (0, 0, 1)),
])
def test_diagonal(shape, args):
    check_op(lambda x: F.diagonal(x, *args),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: numpy.diagonal(x, *args))


def test_diagonal_errors():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    y = F.diagonal(x)
    assert type(y.creator).__name__ == 'Diagonal'
    y.array[...] = 1  # writeable
    with pytest.raises(ValueError, match='cannot be the same'):
        F.diagonal(x, 0, 0, 0)
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.diagonal(x, 0, 0, 3)
    with pytest.raises(InvalidType, match='x.ndim > 1'):
        F.diagonal(numpy.zeros(3, numpy.float32))
