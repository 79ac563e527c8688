"""F.maximum and F.minimum (chainer/functions/math/maximum.py and
minimum.py), which share everything but the comparison."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

# (function, NumPy reference, node name, an x2 that ties with x1 = [1, 2]
# at the first element and loses at the second)
CASES = [(F.maximum, numpy.maximum, 'Maximum', [1., 0.]),
         (F.minimum, numpy.minimum, 'Minimum', [1., 3.])]
parametrize = pytest.mark.parametrize('func, ref, name, tie_x2', CASES,
                                      ids=['maximum', 'minimum'])


def _apart(rng, dt):
    # Keep the pairs away from ties, where the function has a kink.
    x1 = uniform(rng, (3, 2), numpy.float64, -1, 1)
    off = uniform(rng, (3, 2), numpy.float64, .2, 1) * rng.choice([-1, 1], (3, 2))
    return x1.astype(dt), (x1 + off).astype(dt)


@parametrize
def test_forward_backward(func, ref, name, tie_x2):
    check_op(func, _apart, ref)


@parametrize
def test_zero_dim(func, ref, name, tie_x2):
    # 0-d inputs: the selection mask is a NumPy bool scalar there.
    def make(rng, dt):
        return numpy.asarray(0.3, dt), numpy.asarray(-0.4, dt)
    check_op(func, make, ref)


@parametrize
def test_broadcast(func, ref, name, tie_x2):
    def make(rng, dt):
        return (numpy.array([[-2.], [0.5], [2.]], dt),
                numpy.array([[-1., 1.]], dt))
    check_op(func, make, ref)


@parametrize
def test_tie_sends_gradient_to_x1(func, ref, name, tie_x2):
    a = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    b = chainer.Variable(numpy.array(tie_x2, numpy.float32))
    y = func(a, b)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [1., 1.])
    numpy.testing.assert_array_equal(b.grad, [0., 0.])


@parametrize
def test_node_and_shapes(func, ref, name, tie_x2):
    y = func(chainer.Variable(numpy.array(1., numpy.float32)),
             numpy.array(2., numpy.float32))
    assert y.shape == () and type(y.creator).__name__ == name
    assert y.creator.label == name
    assert float(y.array) == ref(1., 2.)
    z = numpy.zeros((0, 2), numpy.float32)
    assert func(z, z).shape == (0, 2)


@parametrize
def test_errors(func, ref, name, tie_x2):
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x1.dtype.kind == f'):
        func(numpy.ones(2, numpy.int32), numpy.ones(2, numpy.int32))
    with pytest.raises(type_check.InvalidType, match='x1.dtype == x2.dtype'):
        func(x, x.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType, match='cannot broadcast'):
        func(x, numpy.ones(3, numpy.float32))


def test_grad_zeros_are_positive_like_chainer():
    import chainer
    a = chainer.Variable(numpy.array([1., 4.], numpy.float32))
    b = chainer.Variable(numpy.array([3., 2.], numpy.float32))
    y = F.maximum(a, b)
    y.grad = numpy.array([-1., -2.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [0., -2.])
    numpy.testing.assert_array_equal(b.grad, [-1., 0.])
    assert not numpy.signbit(a.grad[0]) and not numpy.signbit(b.grad[1])


def test_minimum_grad_zeros_are_signed_like_chainer():
    # Chainer 7.8.1 multiplies by the masks in F.minimum (F.maximum uses
    # where): a.grad [-1. -0.], b.grad [-0. -2.]
    import chainer
    a = chainer.Variable(numpy.array([1., 4.], numpy.float32))
    b = chainer.Variable(numpy.array([3., 2.], numpy.float32))
    y = F.minimum(a, b)
    y.grad = numpy.array([-1., -2.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [-1., 0.])
    numpy.testing.assert_array_equal(b.grad, [0., -2.])
    assert numpy.signbit(a.grad[1]) and numpy.signbit(b.grad[0])
