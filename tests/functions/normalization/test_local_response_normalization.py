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
