import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.activation.relu import ReLU, ReLUGrad
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def away_from_zero(rng, shape, dtype):
    # Keep clear of the kink at 0 for the numerical gradients.
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 1, shape)
    return numpy.asarray(x, dtype)


@pytest.mark.parametrize('shape', [(3, 2), (), (1, 3, 1)])
def test_relu(shape):
    check_op(F.relu, lambda rng, dt: (away_from_zero(rng, shape, dt),),
             lambda x: numpy.maximum(x, 0))


def test_values_and_creator():
    x = chainer.Variable(numpy.array([-1., 0., 2.], numpy.float32))
    y = F.relu(x)
    assert isinstance(y.creator, ReLU)
    numpy.testing.assert_array_equal(y.array, [0, 0, 2])
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    # The gradient at 0 is 0.
    numpy.testing.assert_array_equal(x.grad, [0, 0, 1])


def test_double_backprop_node():
    x = chainer.Variable(numpy.array([-1., 2.], numpy.float32))
    gx, = chainer.grad([F.sum(F.relu(x) * F.relu(x))], [x],
                       enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, [0, 4])
    assert isinstance(gx.creator, ReLUGrad) or gx.creator is not None
    F.sum(gx).backward()
    numpy.testing.assert_allclose(x.grad, [0, 2])


def test_empty():
    y = F.relu(numpy.zeros((0, 3), numpy.float32))
    assert y.shape == (0, 3) and y.dtype == numpy.float32


def test_int_input():
    with pytest.raises(InvalidType, match='ReLU'):
        F.relu(numpy.array([1, -1], numpy.int32))
