import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(x, n=5, k=2, alpha=1e-4, beta=.75):
    half = n // 2
    s = numpy.zeros_like(x)
    for c in range(x.shape[1]):
        s[:, c] = (x[:, max(0, c - half):c + half + 1] ** 2).sum(axis=1)
    return x / (k + alpha * s) ** beta


@pytest.mark.parametrize('shape,n', [((2, 7, 2), 5), ((2, 4), 2),
                                     ((1, 3, 1, 2), 1), ((2, 5), 4)])
def test_local_response_normalization(shape, n):
    def make(rng, dt):
        return rng.randn(*shape).astype(dt),

    check_op(lambda x: F.local_response_normalization(x, n, 1.5, 0.3, 0.6),
             make, lambda x: _ref(x, n, 1.5, 0.3, 0.6))


def test_defaults_and_creator():
    x = numpy.random.RandomState(0).randn(2, 6, 3).astype('f')
    y = F.local_response_normalization(x)
    testing.assert_allclose(y.array, _ref(x.astype('d')), rtol=1e-6)
    assert y.creator.label == 'LocalResponseNormalization'
    assert F.local_response_normalization(numpy.ones((2, 0), 'f')).shape == \
        (2, 0)


def test_errors():
    with pytest.raises(InvalidType, match='x.ndim >= 2'):
        F.local_response_normalization(numpy.ones(3, 'f'))
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.local_response_normalization(numpy.ones((3, 4), 'i'))


def test_double_backprop():
    x = chainer.Variable(numpy.random.RandomState(1).randn(2, 3))
    y = F.local_response_normalization(x, n=3, alpha=.5)
    gx, = chainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx * gx)], [x])
    assert ggx.shape == (2, 3)


def _chainer_order_lrn(x, n, k, alpha, beta):
    # the neighbours' squares added one shift at a time, as Chainer 7.8.1
    x2 = x * x
    s = x2.copy()
    for i in range(1, n // 2 + 1):
        s[:, i:] += x2[:, :-i]
        s[:, :-i] += x2[:, i:]
    return x * (k + alpha * s) ** -beta


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float16])
def test_rounds_as_chainer(dtype):
    rs = numpy.random.RandomState(0)
    x = (rs.randn(2, 16, 3, 3) * 10).astype(dtype)
    y = F.local_response_normalization(x, n=5, k=1, alpha=1e-2)
    assert y.dtype == dtype
    assert y.array.tobytes() == _chainer_order_lrn(
        x, 5, 1, 1e-2, 0.75).tobytes()


def test_float16_values_and_gradient_of_chainer():
    x = ((numpy.arange(28, dtype=numpy.float32).reshape(2, 7, 2) * 0.731)
         % 3.1 - 1.5) * 10
    xv = chainer.Variable(x.astype(numpy.float16))
    y = F.local_response_normalization(xv, n=5, k=1, alpha=1e-2)
    assert y.array[0, :, 0].tolist() == [
        -4.3046875, -0.1083984375, 3.3515625, -0.66162109375, 3.28125,
        -1.404296875, 3.89453125]
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert xv.grad[0, :, 0].tolist() == [
        0.208740234375, 0.28271484375, 0.22119140625, 0.32568359375,
        -0.02734375, 0.42236328125, 0.1697998046875]
