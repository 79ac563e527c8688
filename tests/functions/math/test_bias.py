import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('x_shape,y_shape,axis', [
    ((2, 3, 4), (3,), 1), ((2, 3, 4), (3, 4), 1), ((2, 3, 4), (4,), 2),
    ((2, 3, 4), (2,), 0), ((2, 3, 4), (4,), -1), ((2, 3), (1,), 1),
])
def test_bias(x_shape, y_shape, axis):
    def ref(x, y):
        shape = [1] * len(x_shape)
        a = axis % len(x_shape)
        shape[a:a + len(y_shape)] = y_shape
        return x + y.reshape(shape)
    check_op(lambda x, y: F.bias(x, y, axis),
             lambda rng, dt: (rng.randn(*x_shape).astype(dt),
                              rng.randn(*y_shape).astype(dt)), ref)


def test_bias_empty_and_variable():
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    y = chainer.Variable(numpy.ones(3, numpy.float32))
    z = F.bias(x, y)
    assert z.shape == (0, 3)
    F.sum(z).backward()
    numpy.testing.assert_array_equal(y.grad, [0, 0, 0])


def test_bias_errors():
    x = numpy.ones((2, 3, 4), numpy.float32)
    # Chainer 7.8.1's message: from the broadcast_to inside bias
    with pytest.raises(InvalidType) as e:
        F.bias(x, numpy.ones(4, numpy.float32), axis=1)
    assert str(e.value) == (
        '\nInvalid operation is performed in: BroadcastTo (Forward)\n\n'
        'Expect: in_type[0].shape[-2] == 3 or in_type[0].shape[-2] == 1\n'
        'Actual: in_type[0].shape: (1, 4, 1)')
    with pytest.raises(InvalidType):
        F.bias(x, numpy.ones((3, 4), numpy.float32), axis=2)
