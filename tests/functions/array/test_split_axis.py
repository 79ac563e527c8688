import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,ios,axis', [
    ((2, 6), 3, 1),
    ((4, 3), [1, 3], 0),
    ((2, 3, 4), [-1], -1),
    ((2, 3), [0, 3], 1),      # empty pieces
    ((2, 3), [2, 1], 1),      # unordered: overlapping pieces
    ((2, 3), numpy.array([1]), 1),
])
def test_split_axis(shape, ios, axis):
    check_op(lambda x: F.split_axis(x, ios, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: tuple(numpy.split(x, ios, axis)))


def test_force_tuple():
    x = numpy.zeros((2, 3), numpy.float32)
    ys = F.split_axis(x, 1, 0)
    assert isinstance(ys, tuple) and len(ys) == 1
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, chainer.Variable)
    assert type(y.creator).__name__ == 'SplitAxis'
    assert isinstance(F.split_axis(x, 3, 1, force_tuple=False), tuple)


def test_unused_outputs_get_zero_gradient():
    x = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    ys = F.split_axis(x, 2, 1)
    F.sum(ys[1] * 3).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0, 3, 3]] * 2)


def test_split_axis_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='sections == 0'):
        F.split_axis(x, 2, 1)
    with pytest.raises(InvalidType, match='max_index'):
        F.split_axis(x, [1, 5], 1)
    with pytest.raises(InvalidType, match='ndim'):
        F.split_axis(x, 2, 2)
    with pytest.raises(TypeError, match='indices_or_sections'):
        F.split_axis(x, 2.0, 0)
    with pytest.raises(ValueError, match='positive'):
        F.split_axis(x, 0, 0)
