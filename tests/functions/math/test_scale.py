import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('x_shape,y_shape,axis', [
    ((2, 3, 4), (3,), 1), ((2, 3, 4), (3, 4), 1), ((2, 3, 4), (4,), 2),
    ((2, 3, 4), (2, 3), 0), ((2, 3), (3,), -1),
])
def test_scale(x_shape, y_shape, axis):
    def ref(x, y):
        shape = [1] * len(x_shape)
        a = axis % len(x_shape)
        shape[a:a + len(y_shape)] = y_shape
        return x * y.reshape(shape)
    check_op(lambda x, y: F.scale(x, y, axis),
             lambda rng, dt: (rng.randn(*x_shape).astype(dt),
                              rng.randn(*y_shape).astype(dt)), ref)


def test_scale_gradient_of_y():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = chainer.Variable(numpy.ones(3, numpy.float32))
    F.sum(F.scale(x, y)).backward()
    numpy.testing.assert_array_equal(y.grad, [3, 5, 7])


def test_scale_errors():
    x = numpy.ones((2, 3, 4), numpy.float32)
    with pytest.raises(InvalidType, match='BroadcastTo'):  # as Chainer
        F.scale(x, numpy.ones(4, numpy.float32))
    with pytest.raises(InvalidType):
        F.scale(x, numpy.ones(4, numpy.float32), axis=3)
