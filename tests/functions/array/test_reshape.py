import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,to', [((2, 3), (3, 2)), ((2, 3), (-1,)),
                                      ((6,), (2, -1, 1)), ((), (1, 1)),
                                      ((0, 3), (3, 0)), ((1,), ())])
def test_reshape(shape, to):
    check_op(lambda x: F.reshape(x, to),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: x.reshape(to))


def test_reshape_creator_and_same_shape():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.reshape(x, (3, 2)).creator).__name__ == 'Reshape'
    assert isinstance(F.reshape(x, (2, 3)), chainer.Variable)
    assert F.reshape(x, 6).shape == (6,)


def test_reshape_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='Reshape'):
        F.reshape(x, (4, -1))
    with pytest.raises(InvalidType, match=r'known_size\(=4\) == 0'):
        F.reshape(x, (4, -1))
    with pytest.raises(InvalidType, match=r'prod\(\(5,\)\)\nActual: 6 != 5'):
        F.reshape(x, (5,))
    with pytest.raises(AssertionError):
        F.reshape(x, (-1, -1))
