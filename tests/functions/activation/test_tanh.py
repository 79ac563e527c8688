import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (), (2, 0)])
def test_tanh(shape):
    check_op(F.tanh, lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),),
             numpy.tanh, backward=0 not in shape,
             double_backward=0 not in shape)


def test_extremes():
    y = F.tanh(numpy.array([-1e4, 0, 1e4], numpy.float16))
    assert y.creator.label == 'Tanh' and y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [-1, 0, 1])


def test_errors():
    with pytest.raises(InvalidType, match='Tanh'):
        F.tanh(numpy.array([1], numpy.int32))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_zero_dim_gradient_is_an_array_of_the_dtype(dtype):
    # NumPy makes scalars of 0-d arithmetic, and under NumPy 1 a Python 1
    # would have turned 1 - y*y into float64
    x = chainer.Variable(numpy.array(0.5, dtype))
    y = F.tanh(x)
    y.grad = numpy.array(2., dtype)
    y.backward()
    assert type(x.grad) is numpy.ndarray and x.grad.dtype == dtype
    want = 2 * (1 - numpy.tanh(0.5) ** 2)
    numpy.testing.assert_allclose(x.grad, want, rtol=1e-3)
