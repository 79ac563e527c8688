import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def inputs(rng, shape, dtype):
    # Values clear of the kinks at 0 and at z (= 0.75 below).
    x = rng.choice([-0.5, 0.4, 1.2], shape) + rng.uniform(-0.1, 0.1, shape)
    return (numpy.asarray(x, dtype),)


@pytest.mark.parametrize('shape', [(3, 2), ()])
def test_clipped_relu(shape):
    check_op(lambda x: F.clipped_relu(x, 0.75),
             lambda rng, dt: inputs(rng, shape, dt),
             lambda x: numpy.clip(x, 0, 0.75))


def test_relu6():
    x = numpy.array([-1, 0.5, 5.5, 6.5, 100], numpy.float32)
    y = F.relu6(x)
    assert y.creator.label == 'ClippedReLU'
    numpy.testing.assert_array_equal(y.array, [0, 0.5, 5.5, 6, 6])
    check_op(F.relu6, lambda rng, dt: (numpy.array([-1, 3, 7], dt),),
             lambda x: numpy.clip(x, 0, 6))


def test_default_z_and_kinks():
    x = chainer.Variable(numpy.array([-2., 0., 20., 25., 3.], numpy.float32))
    y = F.clipped_relu(x)
    numpy.testing.assert_array_equal(y.array, [0, 0, 20, 20, 3])
    y.grad = numpy.ones(5, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0, 0, 0, 0, 1])


def test_errors():
    with pytest.raises(InvalidType, match='ClippedReLU'):
        F.clipped_relu(numpy.array([1], numpy.int32))
    with pytest.raises(AssertionError, match='z must be positive'):
        F.clipped_relu(numpy.array([1.], numpy.float32), -1.)


def test_empty():
    assert F.clipped_relu(numpy.zeros((2, 0), numpy.float16)).shape == (2, 0)
