import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def inputs(rng, shape, dtype):
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 1, shape)
    return (numpy.asarray(x, dtype),)


@pytest.mark.parametrize('slope,shape', [(0.2, (3, 2)), (-0.5, ()),
                                         (0.01, (2, 1, 3))])
def test_leaky_relu(slope, shape):
    check_op(lambda x: F.leaky_relu(x, slope),
             lambda rng, dt: inputs(rng, shape, dt),
             lambda x: numpy.where(x > 0, x, slope * x))


def test_default_and_zero():
    x = chainer.Variable(numpy.array([-1., 0., 2.], numpy.float32))
    y = F.leaky_relu(x)
    assert y.creator.label == 'LeakyReLU'
    numpy.testing.assert_allclose(y.array, [-0.2, 0, 2])
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [0.2, 0.2, 1])


def test_errors():
    with pytest.raises(InvalidType, match='LeakyReLU'):
        F.leaky_relu(numpy.array([1], numpy.int32))


def test_empty():
    assert F.leaky_relu(numpy.zeros((0,), numpy.float16)).dtype == \
        numpy.float16
