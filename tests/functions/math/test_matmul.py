import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import matmul as matmul_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}


def _t(x, trans):
    return x.swapaxes(-1, -2) if trans and x.ndim >= 2 else x


@pytest.mark.parametrize('a_shape,b_shape', [
    ((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)),
    ((2, 2, 3), (2, 3, 2)), ((2, 1, 2, 3), (3, 3, 2)),   # broadcast batch
    ((2, 2, 3), (3, 2)), ((0, 3), (3, 2)),
])
def test_matmul(a_shape, b_shape):
    def f(a, b):
        y = F.matmul(a, b)
        return F.reshape(y, (1,)) if y.ndim == 0 else y
    check_op(f, lambda rng, dt: (rng.randn(*a_shape).astype(dt),
                                 rng.randn(*b_shape).astype(dt)),
             lambda a, b: numpy.atleast_1d(numpy.matmul(a, b)),
             fwd_tol=TOL16, bwd_tol=TOL16)


@pytest.mark.parametrize('transa', [False, True])
@pytest.mark.parametrize('transb', [False, True])
@pytest.mark.parametrize('a_shape,b_shape', [
    ((2, 3), (3, 4)), ((2, 2, 3), (2, 3, 4)), ((3,), (3, 4)),
])
def test_matmul_trans(transa, transb, a_shape, b_shape):
    a_shape = a_shape[:-2] + a_shape[-2:][::-1] if transa and \
        len(a_shape) >= 2 else a_shape
    b_shape = b_shape[:-2] + b_shape[-2:][::-1] if transb else b_shape
    check_op(lambda a, b: F.matmul(a, b, transa=transa, transb=transb),
             lambda rng, dt: (rng.randn(*a_shape).astype(dt),
                              rng.randn(*b_shape).astype(dt)),
             lambda a, b: numpy.matmul(_t(a, transa), _t(b, transb)),
             fwd_tol=TOL16, bwd_tol=TOL16)


def test_matmul_creator_and_dtype():
    a = numpy.ones((2, 3), numpy.float32)
    y = F.matmul(a, a.T)
    assert isinstance(y.creator, matmul_mod.MatMul)
    y = F.matmul(a, numpy.ones(3, numpy.float64))
    assert y.dtype == numpy.float64
    x = chainer.Variable(a)
    F.sum(F.matmul(x, numpy.ones(3, numpy.float64))).backward()
    assert x.grad.dtype == numpy.float32


@pytest.mark.parametrize('transa,transb,a_shape,b_shape,expect', [
    (False, False, (2, 2, 3), (2, 3, 2), (2, 2, 2)),
    (True, False, (2, 3), (2, 3), (2, 1, 1)),
    (False, True, (2, 3), (2, 3), (2, 3, 3)),
])
def test_batch_matmul(transa, transb, a_shape, b_shape, expect):
    a = numpy.random.randn(*a_shape).astype(numpy.float32)
    b = numpy.random.randn(*b_shape).astype(numpy.float32)
    with pytest.warns(DeprecationWarning):
        y = F.batch_matmul(a, b, transa=transa, transb=transb)
    assert y.shape == expect
    a3 = a if a.ndim == 3 else a[:, :, None]
    b3 = b if b.ndim == 3 else b[:, :, None]
    numpy.testing.assert_allclose(
        y.array, numpy.matmul(_t(a3, transa), _t(b3, transb)), rtol=1e-5,
        atol=1e-5)


def test_batch_matmul_gradient():
    def f(a, b):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            return F.batch_matmul(a, b, transa=True)
    check_op(f, lambda rng, dt: (rng.randn(2, 3).astype(dt),
                                 rng.randn(2, 3).astype(dt)),
             lambda a, b: numpy.matmul(a[:, None, :], b[:, :, None]),
             dtypes=(numpy.float64,))


def test_matmul_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='MatMul'):
        F.matmul(a, a)
    with pytest.raises(InvalidType):
        F.matmul(numpy.ones((2, 2, 3), numpy.float32),
                 numpy.ones((3, 3, 2), numpy.float32))
    with pytest.raises(InvalidType, match='a.dtype.kind == f'):
        F.matmul(numpy.ones((2, 3), numpy.int32),
                 numpy.ones((3, 2), numpy.int32))
    with pytest.raises(InvalidType):
        F.matmul(a[0], a, transa=True)
    with pytest.raises(InvalidType):
        F.matmul(numpy.ones((), numpy.float32), a)


def test_inner_product_mixed_dtypes():
    # float16 . float32, as Chainer accepts: float32 out, each gradient in
    # its input's dtype
    a = chainer.Variable(numpy.array([1., 2., 3.], numpy.float16))
    b = chainer.Variable(numpy.array([4., 5., 6.], numpy.float32))
    y = F.matmul(a, b)
    assert y.dtype == numpy.float32 and float(y.array) == 32.
    y.backward()
    assert a.grad.dtype == numpy.float16 and b.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(a.grad, [4., 5., 6.])
    numpy.testing.assert_array_equal(b.grad, [1., 2., 3.])


def test_batch_shapes_not_broadcastable_text_is_chainers():
    with pytest.raises(InvalidType) as e:
        F.matmul(numpy.ones((2, 2, 3), numpy.float32),
                 numpy.ones((3, 3, 2), numpy.float32))
    assert str(e.value) == ('cannot broadcast inputs of the following '
                            'shapes:\na.shape[:-2] = (2,)\nb.shape[:-2] = '
                            '(3,)')


@pytest.mark.parametrize('transa,transb', [(False, False), (False, True),
                                           (True, False)])
def test_matmul_few_rows_by_the_thin_gemm(transa, transb):
    # a few float32 rows against a matrix of >= 16 columns: a @ b.T (the
    # forward with transb, the input gradient otherwise) goes to the C
    # loops' thin GEMM where they are built
    a_shape = (20, 5) if transa else (5, 20)
    b_shape = (17, 20) if transb else (20, 17)
    check_op(lambda a, b: F.matmul(a, b, transa=transa, transb=transb),
             lambda rng, dt: (rng.randn(*a_shape).astype(dt),
                              rng.randn(*b_shape).astype(dt)),
             lambda a, b: numpy.matmul(_t(a, transa), _t(b, transb)),
             fwd_tol=TOL16, bwd_tol=TOL16)


@pytest.mark.parametrize('m,n,k', [(1, 1, 16), (5, 17, 20), (48, 64, 64),
                                   (49, 3, 33), (3, 40, 15), (32, 90, 100),
                                   (1, 16, 1), (17, 20, 5), (64, 64, 48),
                                   (3, 33, 49), (40, 15, 3), (90, 100, 32)])
@pytest.mark.parametrize('product', ['a_bt', 'at_b'])
def test_thin_products_against_float64(product, m, n, k):
    # the (m, n) products over k of matmul._a_bt (a @ b.T, the thin GEMM
    # for up to 48 rows) and matmul._at_b (a.T @ b, the tn GEMM for up to 48
    # rows and 2^18 multiply-adds), NumPy's elsewhere
    rng = numpy.random.RandomState(m + n + k)
    if product == 'a_bt':
        a = rng.randn(m, k).astype(numpy.float32)
        b = rng.randn(n, k).astype(numpy.float32)
        y, want = matmul_mod._a_bt(a, b), a.astype('d') @ b.T.astype('d')
    else:
        a = rng.randn(k, m).astype(numpy.float32)
        b = rng.randn(k, n).astype(numpy.float32)
        y, want = matmul_mod._at_b(a, b), a.T.astype('d') @ b.astype('d')
        assert matmul_mod._tn_fits(a.shape, b.shape, a.dtype) == (
            matmul_mod._thin is not None and k <= 48 and n >= 16 and
            m * n * k <= 1 << 18)
    assert y.dtype == numpy.float32 and y.shape == (m, n)
    numpy.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


def test_matmul_array_backward_same_bits_as_graph_backward():
    # the array-level backward and the one that records a graph (double
    # backprop) compute the input gradient by the same product
    rng = numpy.random.RandomState(4)
    a0 = rng.randn(32, 64).astype(numpy.float32)
    b0 = rng.randn(64, 64).astype(numpy.float32)
    gy = rng.randn(32, 64).astype(numpy.float32)
    grads = []
    for double in (False, True):
        a, b = chainer.Variable(a0), chainer.Variable(b0)
        y = a @ b
        ga, gb = chainer.grad([y], [a, b], [chainer.Variable(gy)],
                              enable_double_backprop=double)
        grads.append((ga.array, gb.array))
    numpy.testing.assert_array_equal(grads[0][0], grads[1][0])
    numpy.testing.assert_array_equal(grads[0][1], grads[1][1])
    numpy.testing.assert_allclose(grads[0][0], gy.astype('d') @ b0.T,
                                  rtol=1e-5, atol=1e-4)
