import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _red(y, reduce):
    return {'sum': y.sum(), 'mean': y.mean(), 'no': y}[reduce]


@pytest.mark.parametrize('reduce', ['sum', 'mean', 'no'])
def test_gaussian_kl_divergence(reduce):
    check_op(lambda m, v: F.gaussian_kl_divergence(m, v, reduce),
             lambda rng, dt: (rng.randn(3, 2).astype(dt),
                              rng.randn(3, 2).astype(dt)),
             lambda m, v: _red((m * m + numpy.exp(v) - v - 1) / 2, reduce))


@pytest.mark.parametrize('reduce', ['sum', 'mean', 'no'])
def test_bernoulli_nll(reduce):
    def ref(x, y):
        p = 1 / (1 + numpy.exp(-y))
        return _red(-(x * numpy.log(p) + (1 - x) * numpy.log(1 - p)), reduce)
    check_op(lambda x, y: F.bernoulli_nll(x, y, reduce),
             lambda rng, dt: (rng.uniform(0, 1, (3, 2)).astype(dt),
                              rng.randn(3, 2).astype(dt)), ref)


@pytest.mark.parametrize('reduce', ['sum', 'mean', 'no'])
def test_gaussian_nll(reduce):
    def ref(x, m, v):
        return _red(0.5 * numpy.log(2 * numpy.pi) + v / 2 +
                    (x - m) ** 2 * numpy.exp(-v) / 2, reduce)
    check_op(lambda x, m, v: F.gaussian_nll(x, m, v, reduce),
             lambda rng, dt: tuple(rng.randn(3, 2).astype(dt)
                                   for _ in range(3)), ref)


def test_broadcast_stable_and_errors():
    y = F.gaussian_kl_divergence(numpy.zeros((3, 2), numpy.float32),
                                 numpy.zeros((1, 2), numpy.float32), 'no')
    assert y.shape == (3, 2) and not y.array.any()
    y = F.bernoulli_nll(numpy.array([0., 1.], numpy.float32),
                        numpy.array([1e4, -1e4], numpy.float32), 'no')
    numpy.testing.assert_allclose(y.array, [1e4, 1e4])
    x = numpy.zeros(2, numpy.float32)
    for f, args in [(F.gaussian_kl_divergence, (x, x)),
                    (F.bernoulli_nll, (x, x)),
                    (F.gaussian_nll, (x, x, x))]:
        with pytest.raises(ValueError, match="'sum', 'mean' and 'no'"):
            f(*args, reduce='foo')
    with pytest.raises(InvalidType):
        F.gaussian_kl_divergence(x, numpy.zeros(3, numpy.float32))


@pytest.mark.parametrize('call', [
    lambda x: F.gaussian_kl_divergence(x, x, reduce='foo'),
    lambda x: F.bernoulli_nll(x, x, reduce='foo'),
    lambda x: F.gaussian_nll(x, x, x, reduce='foo'),
])
def test_bad_reduce_message_is_chainers(call):
    # Chainer's words exactly, with no function name in front
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError) as e:
        call(x)
    assert str(e.value) == ("only 'sum', 'mean' and 'no' are valid for "
                            "'reduce', but 'foo' is given")
