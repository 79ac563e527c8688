import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def _make(rng, dt, shape=(3, 2)):
    return (uniform(rng, shape, dt, 0, 1), uniform(rng, shape, dt),
            uniform(rng, shape, dt))


def test_forward_backward():
    check_op(F.linear_interpolate, _make,
             lambda p, x, y: p * x + (1 - p) * y)


def test_zero_dim_keeps_dtype():
    check_op(F.linear_interpolate, lambda rng, dt: _make(rng, dt, ()),
             lambda p, x, y: p * x + (1 - p) * y)


def test_node_and_shapes():
    p = numpy.array(.25, numpy.float32)
    y = F.linear_interpolate(chainer.Variable(p), numpy.array(1., numpy.float32),
                             numpy.array(0., numpy.float32))
    assert y.shape == () and float(y.array) == .25
    assert type(y.creator).__name__ == 'LinearInterpolate'
    assert y.creator.label == 'LinearInterpolate'
    z = numpy.zeros((2, 0), numpy.float32)
    assert F.linear_interpolate(z, z, z).shape == (2, 0)


def test_partial_gradients():
    p = chainer.Variable(numpy.array([.25], numpy.float32))
    x = chainer.Variable(numpy.array([4.], numpy.float32))
    y = numpy.array([2.], numpy.float32)
    z = F.linear_interpolate(p, x, y)
    z.backward()
    numpy.testing.assert_allclose(p.grad, [2.])
    numpy.testing.assert_allclose(x.grad, [.25])


def test_errors():
    p = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='p.dtype.kind == f'):
        F.linear_interpolate(p.astype(numpy.int32), p, p)
    with pytest.raises(type_check.InvalidType, match='x.dtype == p.dtype'):
        F.linear_interpolate(p, p.astype(numpy.float64), p)
    with pytest.raises(type_check.InvalidType, match='y.dtype == p.dtype'):
        F.linear_interpolate(p, p, p.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType, match='p.shape == x.shape'):
        F.linear_interpolate(p, numpy.ones(3, numpy.float32), p)
    # No broadcasting, as in Chainer.
    with pytest.raises(type_check.InvalidType, match='p.shape == y.shape'):
        F.linear_interpolate(p, p, numpy.ones((2, 2), numpy.float32))


def test_gradient_of_y_rounds_as_chainer():
    # Chainer 7.8.1 computes gz - p * gz (not gz * (1 - p))
    rs = numpy.random.RandomState(0)
    p, x, y = (chainer.Variable(rs.randn(8).astype(numpy.float32))
               for _ in range(3))
    z = F.linear_interpolate(p, x, y)
    z.grad = rs.randn(8).astype(numpy.float32)
    z.backward()
    assert y.grad.tolist() == [
        -1.7342116832733154, -0.8723908066749573, 0.0009729154407978058,
        0.23227515816688538, -1.3297748565673828, 2.9053306579589844,
        0.007733672857284546, 0.4354001581668854]


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype checks are type checks; with them off NumPy
    # promotes
    p = numpy.array([[1.1, 0.4, -0.35]], numpy.float32)
    x = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    y = numpy.array([[0.9, -0.2, 0.45]])
    with pytest.raises(type_check.InvalidType, match='x.dtype == p.dtype'):
        F.linear_interpolate(p, x, y)
    with chainer.using_config('type_check', False):
        z = F.linear_interpolate(p, x, y)
    assert z.dtype == numpy.float64
    numpy.testing.assert_allclose(z.array, [[
        0.24005369544029237, -0.8000781536102295, -0.16222656369209287]],
        rtol=1e-15)
