import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import logsumexp as lse_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(x, axis=None):
    m = numpy.amax(x, axis=axis, keepdims=True)
    return numpy.squeeze(numpy.log(numpy.exp(x - m).sum(
        axis=axis, keepdims=True)) + m, axis=axis)


@pytest.mark.parametrize('shape,axis', [
    ((2, 3), 1), ((2, 3, 2), (0, 2)), ((3, 2), -1), ((2, 3), 0),
])
def test_logsumexp(shape, axis):
    check_op(lambda x: F.logsumexp(x, axis=axis),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: _ref(x, axis))


def test_logsumexp_all_axes():
    check_op(lambda x: F.reshape(F.logsumexp(x), (1,)),
             lambda rng, dt: (rng.randn(2, 3).astype(dt),),
             lambda x: _ref(x).reshape(1))


def test_logsumexp_large_values_float32():
    x = chainer.Variable(numpy.array([[1e4, 1e4], [-1e4, -1e4 + 1]],
                                     numpy.float32))
    y = F.logsumexp(x, axis=1)
    assert isinstance(y.creator, lse_mod.LogSumExp)
    assert y.dtype == numpy.float32
    assert numpy.isfinite(y.array).all()
    numpy.testing.assert_allclose(
        y.array, [1e4 + numpy.log(2), -1e4 + 1 + numpy.log1p(numpy.exp(-1))],
        rtol=1e-6)
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad[0], [0.5, 0.5], rtol=1e-6)
    assert numpy.isfinite(x.grad).all()


def test_logsumexp_neg_inf_and_empty():
    y = F.logsumexp(numpy.full((2,), -numpy.inf, numpy.float32))
    assert y.array == -numpy.inf
    y = F.logsumexp(numpy.zeros((0, 2), numpy.float32), axis=1)
    assert y.shape == (0,)


def test_logsumexp_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError):
        F.logsumexp(x, axis=1.0)
    with pytest.raises(ValueError, match='duplicate'):
        F.logsumexp(x, axis=(1, 1))
    with pytest.raises(InvalidType):
        F.logsumexp(x, axis=5)
    with pytest.raises(InvalidType):
        F.logsumexp(numpy.ones(3, numpy.int32))


def test_grad_bits_match_chainer_order():
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(4, 5).astype(numpy.float32))
    g = rs.randn(4).astype(numpy.float32)
    y = F.logsumexp(x, axis=1)
    y.grad = g
    y.backward()
    numpy.testing.assert_array_equal(
        x.grad, g[:, None] * numpy.exp(x.array - y.array[:, None]))
