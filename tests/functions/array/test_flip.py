import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis', [((2, 3), 0), ((2, 3, 2), 1),
                                        ((2, 3), -1), ((0, 3), 1)])
def test_flip(shape, axis):
    check_op(lambda x: F.flip(x, axis),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: numpy.flip(x, axis))


def test_flip_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.flip(x, 0).creator).__name__ == 'Flip'
    with pytest.raises(InvalidType, match='x.ndim > 2'):
        F.flip(x, 2)
    with pytest.raises(InvalidType, match='x.ndim >= 3'):
        F.flip(x, -3)
    with pytest.raises(TypeError, match='axis must be int'):
        F.flip(x, (0, 1))
    with pytest.raises(InvalidType):
        F.flip(numpy.zeros((), numpy.float32), 0)


@pytest.mark.parametrize('axis', [-3, -2, -1, 0, 1, 2])
def test_private_flip_helper_takes_negative_axes(axis):
    from chainer.functions.array.flip import _flip
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    numpy.testing.assert_array_equal(_flip(x, axis), numpy.flip(x, axis))
