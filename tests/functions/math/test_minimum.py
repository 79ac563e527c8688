import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def _apart(rng, dt):
    # Keep the pairs away from ties, where the function has a kink.
    x1 = uniform(rng, (3, 2), numpy.float64, -1, 1)
    off = uniform(rng, (3, 2), numpy.float64, .2, 1) * rng.choice([-1, 1], (3, 2))
    return x1.astype(dt), (x1 + off).astype(dt)


def test_forward_backward():
    check_op(F.minimum, _apart, numpy.minimum)


def test_broadcast():
    def make(rng, dt):
        return (numpy.array([[-2.], [0.5], [2.]], dt),
                numpy.array([[-1., 1.]], dt))
    check_op(F.minimum, make, numpy.minimum)


def test_tie_sends_gradient_to_x1():
    a = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    b = chainer.Variable(numpy.array([1., 3.], numpy.float32))
    y = F.minimum(a, b)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [1., 1.])
    numpy.testing.assert_array_equal(b.grad, [0., 0.])


def test_node_and_shapes():
    y = F.minimum(chainer.Variable(numpy.array(1., numpy.float32)),
                  numpy.array(2., numpy.float32))
    assert y.shape == () and float(y.array) == 1.
    assert type(y.creator).__name__ == 'Minimum'
    assert y.creator.label == 'Minimum'
    z = numpy.zeros((0, 2), numpy.float32)
    assert F.minimum(z, z).shape == (0, 2)


def test_errors():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x1.dtype.kind == f'):
        F.minimum(numpy.ones(2, numpy.int32), numpy.ones(2, numpy.int32))
    with pytest.raises(type_check.InvalidType, match='x1.dtype == x2.dtype'):
        F.minimum(x, x.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType, match='cannot broadcast'):
        F.minimum(x, numpy.ones(3, numpy.float32))
