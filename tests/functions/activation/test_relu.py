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


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_array_step_matches_the_recorded_one(dtype):
    # without double backprop the gradient is computed on arrays
    # (ReLU._backward_arrays): the same values, -0. included, and a 0-d
    # gradient is an array of the dtype, not a NumPy scalar
    rng = numpy.random.RandomState(3)
    for shape in [(), (4, 3), (2, 3, 4, 5)]:
        x0 = numpy.asarray(rng.randn(*shape), dtype)
        g0 = numpy.asarray(rng.randn(*shape), dtype)
        grads = []
        for double in (False, True):
            x = chainer.Variable(x0.copy())
            y = F.relu(x)
            y.grad = g0.copy()
            y.backward(enable_double_backprop=double)
            assert type(x.grad) is numpy.ndarray and x.grad.dtype == dtype
            grads.append(x.grad)
        numpy.testing.assert_array_equal(grads[0], grads[1])
        numpy.testing.assert_array_equal(numpy.signbit(grads[0]),
                                         numpy.signbit(g0 * (x0 > 0)))
        numpy.testing.assert_array_equal(grads[0], g0 * (x0 > 0))
    # a conv-like (channels-last) y against a C-contiguous gy
    x0 = rng.randn(2, 5, 5, 3).astype(dtype).transpose(0, 3, 1, 2)
    x = chainer.Variable(x0)
    y = F.relu(x)
    g0 = rng.randn(*y.shape).astype(dtype)
    y.grad = g0
    y.backward()
    assert x.grad.flags.c_contiguous
    numpy.testing.assert_array_equal(x.grad, g0 * (x0 > 0))
