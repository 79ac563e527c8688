import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis', [((2, 3), 0), ((2, 3), 2),
                                        ((2, 3), -1), ((2, 3), -3), ((), 0),
                                        ((0, 2), 1)])
def test_expand_dims(shape, axis):
    check_op(lambda x: F.expand_dims(x, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.expand_dims(x, axis))


def test_expand_dims_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.expand_dims(x, 0).creator).__name__ == 'ExpandDims'
    with pytest.raises(InvalidType, match='x.ndim >= 3'):
        F.expand_dims(x, 3)
    with pytest.raises(InvalidType, match='x.ndim >= 3'):
        F.expand_dims(x, -4)
    with pytest.raises(TypeError):
        F.expand_dims(x, (0, 1))
