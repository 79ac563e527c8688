"""Tests of chainer.distributions.Uniform.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer.distribution import kl_divergence

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, -1.0], [2.5, 2.2, 0.5]]
PARAMS2 = [[-0.5, 1.0, -1.5], [3.0, 2.5, 0.6]]
X = [0.6, 2.0, 0.0]
Q = [0.3, 0.8, 0.5]
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = '[low, high]'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [1.5, 1.85, -0.25],
    'variance': [0.3333333333333333, 0.04083333333333335, 0.1875],
    'stddev': [0.5773502691896257, 0.20207259421636906, 0.4330127018922193],
    'entropy': [0.6931471805599453, -0.35667494393873217, 0.4054651081081644],
    'log_prob': [-0.6931471805599453, 0.35667494393873217, -0.4054651081081644],
    'cdf': [0.04999999999999999, 0.7142857142857141, 0.6666666666666666],
    'icdf': [1.1, 2.06, -0.25],
}
KL = [0.5596157879354228, 0.7621400520468966, 0.33647223662121295]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[1.5976270078546495, 2.000632556460694, -0.09585493589253424],
          [1.5897663659937937, 1.7965583595372334, -0.03115883040001588]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('mode', 'covariance', 'prob', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Uniform(low=p[0], high=p[1])


def test_loc_scale():
    low, high = dist_cases.arrays(PARAMS)
    d = D.Uniform(loc=low, scale=high - low)
    assert set(d.params) == {'loc', 'scale'}
    assert set(make(low, high).params) == {'low', 'high'}
    numpy.testing.assert_allclose(d.high.array, high, rtol=1e-12)
    for name in ('log_prob', 'cdf'):
        numpy.testing.assert_allclose(
            getattr(d, name)(numpy.array(X)).array, EXPECTED[name],
            rtol=1e-10)


def test_outside_support():
    d = D.Uniform(low=numpy.array([0.5, 1.5]), high=numpy.array([2.5, 2.2]))
    x = numpy.array([0., 5.])
    numpy.testing.assert_array_equal(d.log_prob(x).array, -numpy.inf)
    numpy.testing.assert_array_equal(d.cdf(x).array, [0., 1.])
    # The end points belong to the support.
    y = d.log_prob(numpy.array([0.5, 2.2])).array
    assert numpy.isfinite(y).all()


def test_kl_not_contained():
    a = D.Uniform(low=numpy.array([0.]), high=numpy.array([2.]))
    b = D.Uniform(low=numpy.array([0.5]), high=numpy.array([3.]))
    assert kl_divergence(a, b).array[0] == numpy.inf


@pytest.mark.parametrize('kwargs', [
    {}, {'low': 0.}, {'low': 0., 'scale': 1.},
    {'low': 0., 'high': 1., 'loc': 0.}])
def test_errors(kwargs):
    kwargs = {k: numpy.array([v]) for k, v in kwargs.items()}
    with pytest.raises(ValueError, match='`low, high` or `loc, scale`'):
        D.Uniform(**kwargs)


def test_positional_rejected():
    with pytest.raises(TypeError):
        D.Uniform(numpy.zeros(1), numpy.ones(1))
