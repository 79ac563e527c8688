import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import utils
from chainer.functions.math import sparse_matmul as sm_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}


def _sparse(rng, shape, dt):
    x = rng.randn(*shape)
    x[rng.rand(*shape) < 0.4] = 0
    return x.astype(dt)


def _t(x):
    return x.swapaxes(-1, -2)


@pytest.mark.parametrize('sp_left', [True, False])
@pytest.mark.parametrize('transa', [False, True])
@pytest.mark.parametrize('transb', [False, True])
@pytest.mark.parametrize('batch', [(), (2,)])
def test_sparse_matmul(sp_left, transa, transb, batch):
    m, k, n = 3, 4, 2
    a_shape = batch + ((k, m) if transa else (m, k))
    b_shape = batch + ((n, k) if transb else (k, n))
    rng = numpy.random.RandomState(0)
    sp_dense = _sparse(rng, a_shape if sp_left else b_shape, numpy.float64)
    # The sparse pattern is fixed; its values (incl. padding) are inputs.
    pattern = utils.to_coo(sp_dense, ldnz=sp_dense.size)

    def f(data, dn):
        sp = utils.CooMatrix(data, pattern.row, pattern.col, pattern.shape)
        return (F.sparse_matmul(sp, dn, transa, transb) if sp_left else
                F.sparse_matmul(dn, sp, transa, transb))

    def ref(data, dn):
        sp = utils.CooMatrix(data, pattern.row, pattern.col,
                             pattern.shape).to_dense()
        a, b = (sp, dn) if sp_left else (dn, sp)
        return numpy.matmul(_t(a) if transa else a, _t(b) if transb else b)

    check_op(f, lambda rng, dt: (pattern.data.array.astype(dt),
                                 rng.randn(*(b_shape if sp_left else
                                             a_shape)).astype(dt)),
             ref, fwd_tol=TOL16, bwd_tol=TOL16)


def test_sparse_matmul_values_and_creator():
    a = numpy.array([[0, 1., 0], [2., 0, 3.]], numpy.float32)
    b = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    sp = utils.to_coo(a, requires_grad=True)
    y = F.sparse_matmul(sp, b)
    assert isinstance(y.creator, sm_mod.CooMatMul)
    numpy.testing.assert_allclose(y.array, a @ b)
    F.sum(y).backward()
    # Gradient only at the stored entries.
    numpy.testing.assert_allclose(sp.data.grad, [5., 1., 9.])


def test_sparse_matmul_errors():
    a = numpy.array([[0, 1., 0], [2., 0, 3.]], numpy.float32)
    b = numpy.ones((3, 2), numpy.float32)
    sp = utils.to_coo(a)
    with pytest.raises(ValueError, match='not supported'):
        F.sparse_matmul(b, b)
    with pytest.raises(ValueError, match='not supported'):
        F.sparse_matmul(sp, sp)
    with pytest.raises(InvalidType, match='CooMatMul'):
        F.sparse_matmul(sp, b[:2])
    with pytest.raises(InvalidType, match='sp.ndim == dn.ndim - 1'):
        F.sparse_matmul(utils.to_coo(a[None]), b)


@pytest.mark.parametrize('sp_dtype,dn_dtype', [
    (numpy.float32, numpy.float64), (numpy.float64, numpy.float32)])
def test_sparse_matmul_mixed_dtypes(sp_dtype, dn_dtype):
    # As in Chainer: computed in the promoted dtype; each gradient in its
    # input's dtype.
    a = numpy.array([[0, 1., 0], [2., 0, 3.]], sp_dtype)
    b = numpy.arange(6.).reshape(3, 2).astype(dn_dtype)
    sp = utils.to_coo(a, requires_grad=True)
    dn = chainer.Variable(b)
    y = F.sparse_matmul(sp, dn)
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, a.astype('d') @ b.astype('d'))
    F.sum(y).backward()
    assert sp.data.grad.dtype == sp_dtype and dn.grad.dtype == dn_dtype
    numpy.testing.assert_allclose(dn.grad, a.T.astype('d') @ numpy.ones((2, 2)))
    numpy.testing.assert_allclose(sp.data.grad, [5., 1., 9.])


def test_coo_matmul_chainer_signature():
    # Chainer's positional order: (row, col, shape, order, transa, ...)
    a = numpy.array([[0, 1., 0], [2., 0, 3.]], numpy.float32)
    sp = utils.to_coo(a)
    func = F.math.sparse_matmul.CooMatMul(
        sp.row, sp.col, sp.shape, sp.order, False, False, False,
        numpy.float64)
    y = func.apply((sp.data, numpy.ones((3, 2), numpy.float32)))[0]
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, a @ numpy.ones((3, 2)))
