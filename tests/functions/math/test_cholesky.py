import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import cholesky as chol_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=5e-2, rtol=5e-2)}


def _spd(n):
    def make(rng, dt):
        a = rng.randn(n, n)
        return (a @ a.T + n * numpy.eye(n)).astype(dt)
    return make


def _sym(f):
    # The numerical gradient moves one element at a time; symmetrizing
    # first makes it match the symmetric gradient of a symmetric input.
    return lambda a: f((a + F.transpose(a)) * 0.5)


@pytest.mark.parametrize('n', [1, 3])
def test_cholesky(n):
    check_op(_sym(F.cholesky), _spd(n),
             lambda a: numpy.linalg.cholesky((a + a.T) / 2),
             fwd_tol=TOL16, bwd_tol=TOL16)


def test_cholesky_values_and_creator():
    a = numpy.array([[4., 2.], [2., 2.]], numpy.float32)
    y = F.cholesky(a)
    assert isinstance(y.creator, chol_mod.Cholesky)
    numpy.testing.assert_allclose(y.array, [[2., 0.], [1., 1.]])
    y16 = F.cholesky(a.astype(numpy.float16))
    assert y16.dtype == numpy.float16


def test_cholesky_gradient_is_symmetric():
    a = chainer.Variable(numpy.array([[4., 2.], [2., 3.]]))
    F.sum(F.cholesky(a) ** 2).backward()
    numpy.testing.assert_allclose(a.grad, a.grad.T)


def test_cholesky_errors():
    with pytest.raises(numpy.linalg.LinAlgError):
        F.cholesky(numpy.array([[4., 2.], [2., -3.]], numpy.float32))
    with pytest.raises(InvalidType, match='cholesky'):
        F.cholesky(numpy.ones((1, 2, 2), numpy.float32))
    with pytest.raises(numpy.linalg.LinAlgError):  # NumPy's, as in Chainer
        F.cholesky(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(InvalidType):
        F.cholesky(numpy.ones((2, 2), numpy.int32))
