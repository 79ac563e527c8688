import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def _make(rng, dt, shape=(3, 2)):
    # x / d = k + f with f away from 0 and 1: away from the jumps.
    d = uniform(rng, shape, numpy.float64, 1.5, 2.5) * rng.choice([-1, 1], shape)
    k = rng.randint(-2, 3, shape)
    f = uniform(rng, shape, numpy.float64, .2, .8) * numpy.where(k < 0, -1, 1)
    return (d * (k + f)).astype(dt), d.astype(dt)


def test_forward_backward():
    check_op(F.fmod, _make, numpy.fmod)


def test_broadcast():
    def make(rng, dt):
        return (numpy.array([[5.5, -5.5, 1.2]], dt),
                numpy.array([[2.], [-1.6]], dt))
    check_op(F.fmod, make, numpy.fmod)


def test_values_sign_of_x():
    x = chainer.Variable(numpy.array([5.5, -5.5], numpy.float32))
    d = chainer.Variable(numpy.array([2., 2.], numpy.float32))
    y = F.fmod(x, d)
    numpy.testing.assert_array_equal(y.array, [1.5, -1.5])
    assert type(y.creator).__name__ == 'Fmod' and y.creator.label == 'fmod'
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1., 1.])
    numpy.testing.assert_array_equal(d.grad, [-2., 2.])


def test_shapes():
    y = F.fmod(numpy.array(5.5, numpy.float16), numpy.array(2., numpy.float16))
    assert y.shape == () and y.dtype == numpy.float16
    z = numpy.ones((0, 2), numpy.float32)
    assert F.fmod(z, z).shape == (0, 2)


def test_errors():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.fmod(numpy.ones(2, numpy.int32), numpy.ones(2, numpy.int32))
    with pytest.raises(type_check.InvalidType,
                       match='x.dtype == divisor.dtype'):
        F.fmod(x, x.astype(numpy.float64))
    with pytest.raises(ValueError):
        F.fmod(x, numpy.ones(3, numpy.float32))


def test_mixed_dtypes_without_type_check():
    # as Chainer: with type_check off the remainder is taken promoted and
    # cast to x's dtype
    x = numpy.array([[0.3, -1.7, 2.2]], numpy.float16) * 3
    d = numpy.array([[2.1, 1.4, 0.65]], numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x.dtype == '
                       'divisor.dtype'):
        F.fmod(x, d)
    with chainer.using_config('type_check', False):
        y = F.fmod(x, d)
        z = F.fmod(d, d.astype(numpy.float64) / 3)
    assert y.dtype == numpy.float16
    assert y.array.tolist() == [[0.900390625, -0.9013671875, 0.09765625]]
    assert z.dtype == numpy.float32
