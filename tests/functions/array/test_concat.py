import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _pair(*shapes):
    return lambda rng, dt: tuple(numpy.asarray(rng.randn(*s)).astype(dt) for s in shapes)


@pytest.mark.parametrize('shapes,axis', [
    (((2, 3, 4), (2, 1, 4)), 1),
    (((2, 3), (2, 2), (2, 1)), -1),
    (((3,), (2,)), 0),
    (((2, 0, 3), (2, 2, 3)), 1),
])
def test_concat(shapes, axis):
    check_op(lambda *xs: F.concat(xs, axis=axis), _pair(*shapes),
             lambda *xs: numpy.concatenate(xs, axis=axis))


def test_concat_single_and_creator():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = F.concat([x])
    assert type(y.creator).__name__ == 'Concat'
    numpy.testing.assert_array_equal(y.array, x)
    y = F.concat((x, chainer.Variable(x)))  # default axis=1
    assert y.shape == (2, 6)


def test_concat_int():
    x = numpy.arange(4, dtype=numpy.int32).reshape(2, 2)
    assert F.concat((x, x), axis=0).dtype == numpy.int32


def test_concat_gradient_values():
    a = chainer.Variable(numpy.zeros((1, 2), numpy.float32))
    b = chainer.Variable(numpy.zeros((1, 3), numpy.float32))
    y = F.concat((a, b))
    y.grad = numpy.arange(5, dtype=numpy.float32).reshape(1, 5)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [[0, 1]])
    numpy.testing.assert_array_equal(b.grad, [[2, 3, 4]])


def test_concat_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.concat([])
    with pytest.raises(InvalidType, match='dtype'):
        F.concat([x, x.astype(numpy.float64)])
    with pytest.raises(InvalidType, match=r'shape\[0\]'):
        F.concat([x, numpy.zeros((3, 3), numpy.float32)])
    with pytest.raises(InvalidType, match='ndim'):
        F.concat([x, numpy.zeros((2, 3, 1), numpy.float32)])
    with pytest.raises(InvalidType, match='ndim > axis'):
        F.concat([x, x], axis=2)
    with pytest.raises(InvalidType, match='-3'):
        F.concat([x, x], axis=-3)
    with pytest.raises(InvalidType):
        F.concat([numpy.zeros((), numpy.float32)] * 2, axis=0)
