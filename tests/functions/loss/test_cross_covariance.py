import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _cov(y, z):
    return (y - y.mean(0)).T.dot(z - z.mean(0)) / y.shape[0]


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_cross_covariance(reduce):
    def ref(y, z):
        c = _cov(y, z)
        return c if reduce == 'no' else (c * c).sum() / 2
    check_op(lambda y, z: F.cross_covariance(y, z, reduce),
             lambda rng, dt: (rng.randn(4, 3).astype(dt),
                              rng.randn(4, 2).astype(dt)), ref)


def test_values_and_errors():
    y = numpy.array([[1.], [-1.]], numpy.float32)
    out = F.cross_covariance(y, 2 * y)
    assert out.array == 2 and type(out.creator).__name__ == 'CrossCovariance'
    z = numpy.zeros((4, 2), numpy.float32)
    with pytest.raises(ValueError, match="'half_squared_sum' and 'no'"):
        F.cross_covariance(z, z, reduce='mean')
    with pytest.raises(InvalidType, match='y.shape\\[0\\] == z.shape\\[0\\]'):
        F.cross_covariance(z, z[:3])
    with pytest.raises(InvalidType, match='y.dtype == z.dtype'):
        F.cross_covariance(z, z.astype(numpy.float64))
    with pytest.raises(InvalidType, match='y.ndim == 2'):
        F.cross_covariance(z[0], z[0])


def test_half_squared_sum_rounds_like_chainer():
    # Values of Chainer 7.8.1 (float32).  The first rests on a product
    # whose last bit the BLAS decides: Chainer on NumPy 1.26 (and
    # chainer-ng there) gives 0.543875, NumPy 2.4's OpenBLAS one bit less
    numpy.random.seed(0)
    y = numpy.random.randn(4, 3).astype(numpy.float32)
    assert F.cross_covariance(y[:2], y[2:]).array in (
        numpy.float32(0.543875), numpy.float32(0.5438749))
    rs = numpy.random.RandomState(0)
    a = rs.randn(5, 4).astype(numpy.float32)
    b = rs.randn(5, 3).astype(numpy.float32)
    assert F.cross_covariance(a, b).array in (
        numpy.float32(1.2437482), numpy.float32(1.2437481))


def test_float16_gradients_round_as_chainer():
    # Chainer 7.8.1's values: its gradient recomputes the covariance and
    # scales by gy / N, the means by F.mean
    numpy.random.seed(0)
    y = chainer.Variable((numpy.random.randn(5, 4) * 2).astype(numpy.float16))
    z = chainer.Variable(numpy.random.randn(5, 3).astype(numpy.float16))
    c = F.cross_covariance(y, z)
    assert c.array.tolist() == 4.97265625
    F.sum(c * c.array).backward()
    assert y.grad.ravel()[:4].tolist() == [1.984375, 0.4287109375,
                                           1.158203125, 3.65625]
    assert z.grad.ravel()[:4].tolist() == [-5.390625, 3.38671875,
                                           4.83203125, -0.459228515625]


def test_mixed_dtypes_without_type_check():
    # as Chainer: with type_check off the covariance is promoted
    y = numpy.array([[0.3], [-1.7], [2.2]], numpy.float16)
    z = numpy.array([[1.1], [0.4], [-0.35]], numpy.float32)
    with pytest.raises(InvalidType, match='y.dtype == z.dtype'):
        F.cross_covariance(y, z)
    with chainer.using_config('type_check', False):
        loss = F.cross_covariance(y, z)
        cov = F.cross_covariance(z, y.astype(numpy.float64), reduce='no')
    assert loss.dtype == numpy.float32
    assert loss.array.tolist() == 0.11295299977064133
    assert cov.dtype == numpy.float64
