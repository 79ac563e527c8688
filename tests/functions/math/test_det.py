import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import det as det_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# The matrices are well conditioned: I + small noise.
TOL16 = {numpy.float16: dict(atol=5e-2, rtol=5e-2)}


def _mats(shape):
    def make(rng, dt):
        n = shape[-1]
        return (numpy.eye(n) + 0.3 * rng.randn(*shape)).astype(dt)
    return make


@pytest.mark.parametrize('shape', [(3, 2, 2), (2, 3, 3), (1, 1, 1)])
def test_batch_det(shape):
    check_op(F.batch_det, _mats(shape), numpy.linalg.det, bwd_tol=TOL16,
             fwd_tol=TOL16)


def test_det():
    check_op(lambda a: F.reshape(F.det(a), (1,)), _mats((3, 3)),
             lambda a: numpy.linalg.det(a).reshape(1), bwd_tol=TOL16,
             fwd_tol=TOL16)


def test_det_values_and_creator():
    a = numpy.array([[1., 2.], [3., 4.]], numpy.float32)
    y = F.det(a)
    assert y.shape == () and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, -2., rtol=1e-6)
    y = F.batch_det(numpy.stack([a, 2 * a]))
    assert isinstance(y.creator, det_mod.BatchDet)
    numpy.testing.assert_allclose(y.array, [-2., -8.], rtol=1e-6)


def test_det_grad_is_cofactor():
    a = chainer.Variable(numpy.array([[1., 2.], [3., 4.]]))
    F.det(a).backward()
    numpy.testing.assert_allclose(a.grad, [[4., -3.], [-2., 1.]])


def test_batch_det_empty_batch():
    y = F.batch_det(numpy.zeros((0, 2, 2), numpy.float32))
    assert y.shape == (0,)


def test_det_errors():
    with pytest.raises(InvalidType, match='det'):
        F.det(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(InvalidType):
        F.det(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(InvalidType, match='x.ndim == 3'):
        F.batch_det(numpy.ones((2, 2), numpy.float32))
    with pytest.raises(InvalidType):
        F.batch_det(numpy.ones((2, 2, 3), numpy.float32))
    with pytest.raises(InvalidType):
        F.det(numpy.ones((2, 2), numpy.int32))
