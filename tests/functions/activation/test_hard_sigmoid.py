import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def inputs(rng, shape, dtype):
    x = rng.choice([-4, 0, 4], shape) + rng.uniform(-1, 1, shape)
    return (numpy.asarray(x, dtype),)


@pytest.mark.parametrize('shape', [(3, 4), ()])
def test_hard_sigmoid(shape):
    check_op(F.hard_sigmoid, lambda rng, dt: inputs(rng, shape, dt),
             lambda x: numpy.clip(0.2 * x + 0.5, 0, 1))


def test_kinks():
    x = chainer.Variable(numpy.array([-2.5, 2.5, 0., -3, 3], numpy.float32))
    y = F.hard_sigmoid(x)
    numpy.testing.assert_allclose(y.array, [0, 1, 0.5, 0, 1])
    y.grad = numpy.ones(5, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [0, 0, 0.2, 0, 0])


def test_errors():
    with pytest.raises(InvalidType, match='HardSigmoid'):
        F.hard_sigmoid(numpy.array([1], numpy.int32))


def test_empty():
    assert F.hard_sigmoid(numpy.zeros((0, 2), numpy.float64)).shape == (0, 2)
