import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import inv as inv_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=5e-2, rtol=5e-2)}


def _mats(shape):
    def make(rng, dt):
        n = shape[-1]
        return (numpy.eye(n) + 0.3 * rng.randn(*shape)).astype(dt)
    return make


@pytest.mark.parametrize('n', [1, 3])
def test_inv(n):
    check_op(F.inv, _mats((n, n)), numpy.linalg.inv, fwd_tol=TOL16,
             bwd_tol=TOL16)


@pytest.mark.parametrize('shape', [(2, 2, 2), (3, 1, 1)])
def test_batch_inv(shape):
    check_op(F.batch_inv, _mats(shape), numpy.linalg.inv, fwd_tol=TOL16,
             bwd_tol=TOL16)


def test_inv_creator_and_dtype():
    y = F.inv(numpy.eye(2, dtype=numpy.float16) * 2)
    assert isinstance(y.creator, inv_mod.Inv)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, numpy.eye(2) * 0.5)
    y = F.batch_inv(numpy.zeros((0, 2, 2), numpy.float32))
    assert isinstance(y.creator, inv_mod.BatchInv)
    assert y.shape == (0, 2, 2)


def test_inv_times_a_is_identity_gradient():
    a = chainer.Variable(numpy.array([[2., 1.], [1., 3.]]))
    F.sum(F.matmul(F.inv(a), a)).backward()
    numpy.testing.assert_allclose(a.grad, numpy.zeros((2, 2)), atol=1e-12)


def test_inv_errors():
    with pytest.raises(ValueError, match='singular'):
        F.inv(numpy.ones((2, 2), numpy.float32))
    with pytest.raises(ValueError, match='singular'):
        F.batch_inv(numpy.ones((1, 2, 2), numpy.float32))
    with pytest.raises(InvalidType, match='Inv'):
        F.inv(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(InvalidType, match='a.ndim == 2'):
        F.inv(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(InvalidType, match='BatchInv'):
        F.batch_inv(numpy.ones((2, 2), numpy.float32))
    with pytest.raises(InvalidType):
        F.inv(numpy.ones((2, 2), numpy.int32))


def _message(f, *args):
    with pytest.raises(Exception) as e:
        f(*args)
    return type(e.value).__name__, str(e.value).split('\n')[-2:]


def test_not_square_texts_are_chainers():
    f32 = numpy.float32
    assert _message(F.inv, numpy.ones((2, 3), f32)) == (
        'InvalidType', ['Expect: a.shape[0] == a.shape[1]',
                        'Actual: 2 != 3'])
    assert _message(F.batch_inv, numpy.ones((2, 2, 3), f32)) == (
        'InvalidType', ['Expect: a.shape[-1] == a.shape[-2]',
                        'Actual: 3 != 2'])
    assert _message(F.det, numpy.ones((2, 3), f32)) == (
        'InvalidType', ['Expect: x.shape[-1] == x.shape[-2]',
                        'Actual: 3 != 2'])
    assert _message(F.batch_det, numpy.ones((2, 2), f32)) == (
        'InvalidType', ['Expect: x.ndim == 3', 'Actual: 2 != 3'])
    assert _message(F.batch_det, numpy.ones((1, 2, 2), numpy.int32)) == (
        'InvalidType', ['Expect: x.dtype.kind == f', 'Actual: i != f'])
    # F.det reshapes first, as Chainer does
    assert _message(F.det, numpy.ones((2, 2, 2), f32)) == (
        'InvalidType', ['Expect: prod(x.shape) == prod((1, 2, 2))',
                        'Actual: 8 != 4'])
    assert _message(F.cholesky, numpy.ones((2, 3), f32)) == (
        'LinAlgError', ['Last 2 dimensions of the array must be square'])
