import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import cumprod as cumprod_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _make(shape):
    def make(rng, dt):
        x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape)
        return x.astype(dt)
    return make


@pytest.mark.parametrize('shape,axis', [
    ((2, 3), None), ((2, 3), 0), ((2, 3, 2), 1), ((2, 3), -1), ((4,), 0),
])
def test_cumprod(shape, axis):
    check_op(lambda x: F.cumprod(x, axis=axis), _make(shape),
             lambda x: numpy.cumprod(x, axis=axis),
             fwd_tol={numpy.float16: dict(atol=1e-2, rtol=1e-2)})


@pytest.mark.parametrize('axis', [0, 1])
def test_cumprod_with_zeros(axis):
    # The gradient must not divide by zero, in either order.
    check_op(lambda x: F.cumprod(x, axis=axis),
             lambda rng, dt: (numpy.array([[2., 0., 3.], [0., 1.5, 0.],
                                           [-1., 0.5, 2.]], dt),),
             lambda x: numpy.cumprod(x, axis=axis),
             dtypes=(numpy.float32, numpy.float64))


def test_cumprod_grad_values():
    x = chainer.Variable(numpy.array([2., 0., 3., 0.]))
    y = F.cumprod(x)
    assert isinstance(y.creator, cumprod_mod.Cumprod)
    y.grad = numpy.ones(4)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [1., 8., 0., 0.])


def test_cumprod_empty():
    e = chainer.Variable(numpy.zeros((2, 0), numpy.float32))
    y = F.cumprod(e, axis=1)
    assert y.shape == (2, 0)
    F.sum(y).backward()
    assert e.grad.shape == (2, 0)


def test_cumprod_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='axis must be int or None'):
        F.cumprod(x, axis=1.0)
    with pytest.raises(InvalidType, match='Cumprod'):
        F.cumprod(x, axis=-3)
