import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis', [((2, 3), 0), ((2, 3, 2), 1),
                                        ((3, 2), -1), ((3,), 0)])
def test_separate(shape, axis):
    check_op(lambda x: F.separate(x, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: tuple(numpy.moveaxis(x, axis, 0)))


def test_separate_partial_gradient():
    x = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    ys = F.separate(x)
    assert type(ys[0].creator).__name__ == 'Separate'
    F.sum(ys[1]).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [1, 1], [0, 0]])


def test_separate_errors():
    with pytest.raises(InvalidType, match='x.ndim > 0'):
        F.separate(numpy.zeros((), numpy.float32))
    with pytest.raises(InvalidType, match='x.ndim > 2'):
        F.separate(numpy.zeros((2, 2), numpy.float32), 2)
