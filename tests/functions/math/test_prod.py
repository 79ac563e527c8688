import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import prod as prod_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op, uniform


def _inputs(shape):
    def make(rng, dt):
        x = uniform(rng, shape, dt, 0.5, 1.5)
        return numpy.asarray(x * rng.choice([-1, 1], shape), dtype=dt)
    return make


@pytest.mark.parametrize('shape,axis,keepdims', [
    ((3, 2, 2), None, False), ((3, 2, 2), 1, False), ((3, 2, 2), -1, True),
    ((3, 2, 2), (0, 2), False), ((), None, False), ((4,), 0, True),
])
def test_prod(shape, axis, keepdims):
    check_op(lambda x: F.prod(x, axis=axis, keepdims=keepdims),
             _inputs(shape),
             lambda x: numpy.prod(x, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize('x,expect', [
    ([2., 0., 3., 0.5], [0., 3., 0., 0.]),
    ([2., 0., 3., 0.], [0., 0., 0., 0.]),
])
def test_prod_grad_with_zeros(x, expect):
    v = chainer.Variable(numpy.array(x))
    y = F.prod(v)
    assert isinstance(y.creator, prod_mod.Prod)
    y.backward()
    numpy.testing.assert_allclose(v.grad, expect)


def test_prod_zeros_double_backward():
    # One zero: the gradient of the others still depends on it.
    check_op(lambda x: F.prod(x, axis=1),
             lambda rng, dt: (numpy.array([[0., 2., -1.5], [1., 0., 0.]],
                                          dt),),
             lambda x: numpy.prod(x, axis=1), dtypes=(numpy.float64,))


def test_prod_0d():
    x = chainer.Variable(numpy.array(-2.5))
    y = F.prod(x)
    assert y.shape == () and float(y.array) == -2.5
    y.backward()
    assert float(x.grad) == 1


def test_prod_empty():
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    y = F.prod(x, axis=0)
    numpy.testing.assert_array_equal(y.array, numpy.ones(3))
    F.sum(y).backward()
    assert x.grad.shape == (0, 3)


def test_prod_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType):
        F.prod(numpy.arange(3))
    with pytest.raises(InvalidType):
        F.prod(x, axis=2)
    with pytest.raises(ValueError, match='duplicate'):
        F.prod(x, axis=(1, -1))
    with pytest.raises(TypeError):
        F.prod(x, axis='a')
