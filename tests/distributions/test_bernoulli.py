"""Tests of chainer.distributions.Bernoulli.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.3, 0.8, 0.55]]
PARAMS2 = [[0.6, 0.1, 0.5]]
X = [1.0, 0.0, 1.0]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = '{0, 1}'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [0.3, 0.8, 0.55],
    'variance': [0.21, 0.15999999999999998, 0.2475],
    'stddev': [0.458257569495584, 0.39999999999999997, 0.49749371855331],
    'entropy': [0.6108643020548934, 0.5004024235381879, 0.6881388137135884],
    'log_prob': [-1.203972804325936, -1.6094379124341005, -0.5978370007556203],
    'prob': [0.3, 0.19999999999999996, 0.55],
}
KL = [0.1837868973868121, 1.3627377539886139, 0.00500836684635686]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0, 1, 0], [0, 1, 0]]
REPARAMETERIZED = False
SAMPLE_DTYPE = numpy.int64
NOT_IMPLEMENTED = ('mode', 'covariance', 'cdf', 'log_cdf', 'survival_function',
                   'log_survival_function', 'perplexity')


def make(*p):
    return D.Bernoulli(p[0])


def test_logit_parametrization():
    # Chainer 7.8.1: Bernoulli(logit=...) of the same p gives the same
    # values; params always holds the logit.
    p = numpy.array(PARAMS[0])
    d = D.Bernoulli(logit=numpy.log(p) - numpy.log1p(-p))
    numpy.testing.assert_allclose(d.p.array, p, rtol=1e-12)
    for name in ('log_prob', 'prob'):
        numpy.testing.assert_allclose(
            getattr(d, name)(numpy.array(X)).array, EXPECTED[name],
            rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, EXPECTED['entropy'],
                                  rtol=1e-10)
    assert list(D.Bernoulli(p).params) == ['logit']
    numpy.testing.assert_allclose(D.Bernoulli(p).logit.array,
                                  d.logit.array, rtol=1e-12)


def test_logit_is_stable():
    d = D.Bernoulli(logit=numpy.array([-1e4, 1e4], numpy.float32))
    y = d.log_prob(numpy.array([0., 1.], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0., 0.])
    numpy.testing.assert_array_equal(d.entropy.array, [0., 0.])


def test_continuous_and_binary_check():
    p = numpy.array([0.3, 0.8], numpy.float32)
    x = numpy.array([0.5, 1.], numpy.float32)
    # Chainer 7.8.1 values.
    numpy.testing.assert_allclose(
        D.Bernoulli(p).log_prob(x).array, [-0.78032386, -0.22314355],
        rtol=1e-6)
    y = D.Bernoulli(p, binary_check=True).log_prob(x).array
    assert y[0] == -numpy.inf
    numpy.testing.assert_allclose(y[1], -0.22314355, rtol=1e-6)
    numpy.testing.assert_allclose(D.Bernoulli(p).prob(x).array, [0.5, 0.8],
                                  rtol=1e-6)
    assert D.Bernoulli(p, binary_check=True).prob(x).array[0] == 0


def test_degenerate_p():
    d = D.Bernoulli(numpy.array([0., 1., 0.5]))
    with numpy.errstate(divide='ignore', invalid='ignore'):
        numpy.testing.assert_allclose(d.entropy.array, [0., 0., numpy.log(2)])
        numpy.testing.assert_allclose(
            d.log_prob(numpy.array([0., 1., 1.])).array,
            [0., 0., -numpy.log(2)])
        numpy.testing.assert_allclose(
            d.log_prob(numpy.array([1., 0., 1.])).array,
            [-numpy.inf, -numpy.inf, -numpy.log(2)])


def test_integer_x():
    d = make(*dist_cases.arrays(PARAMS, numpy.float32))
    y = d.log_prob(numpy.array([1, 0, 1], numpy.int32))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, EXPECTED['log_prob'], rtol=1e-6)


@pytest.mark.parametrize('kwargs', [{}, {'p': 0.5, 'logit': 0.}])
def test_p_or_logit(kwargs):
    kwargs = {k: numpy.array(v) for k, v in kwargs.items()}
    with pytest.raises(ValueError, match='Either `p` or `logit`'):
        D.Bernoulli(**kwargs)
