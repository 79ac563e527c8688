import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis', [((1, 2, 1), None), ((1, 2, 1), 0),
                                        ((1, 2, 1), -1), ((1, 2, 1), (0, 2)),
                                        ((), None), ((1,), None),
                                        ((1, 0), 0)])
def test_squeeze(shape, axis):
    check_op(lambda x: F.squeeze(x, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.squeeze(x, axis))


def test_squeeze_errors():
    x = numpy.zeros((1, 2, 1), numpy.float32)
    assert type(F.squeeze(x).creator).__name__ == 'Squeeze'
    with pytest.raises(ValueError, match='size not equal to one'):
        F.squeeze(x, 1)
    with pytest.raises(InvalidType, match='ndim > 3'):
        F.squeeze(x, 3)
    with pytest.raises(InvalidType, match='-4'):
        F.squeeze(x, -4)
    with pytest.raises(TypeError, match='axis must be None'):
        F.squeeze(x, [0, 2])
    with pytest.raises(ValueError, match='duplicate'):
        F.squeeze(x, (0, 0))
    with pytest.raises(ValueError, match='duplicate'):
        F.squeeze(x, (0, -3))
