"""Tests of chainer.distributions.Pareto.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy

from chainer import distributions as D
from chainer.distribution import kl_divergence

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, 1.0], [2.0, 0.7, 3.5]]
PARAMS2 = [[0.2, 0.6, 0.9], [0.9, 1.6, 2.5]]
X = [2.5, 1.9, 1.1]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = '[scale, inf]'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [1.0, numpy.inf, 1.4],
    'variance': [numpy.inf, numpy.inf, 0.37333333333333335],
    'entropy': [0.11370563888010943, 3.1907114806183254, 0.03295131721891764],
    'log_prob': [-3.4420193761824103, -1.1640009747560882, 0.8238671593759057],
}
KL = [1.073169354904511, 1.9251008835284664, 0.314159240051493]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0.7443753069759826, 9.021872550343959, 1.3018392101583982],
          [0.7411541805580137, 3.29589329767371, 1.345299872066146]]
REPARAMETERIZED = True
# (as Chainer: the sample is scale * (Pareto draw + 1), no gradient to alpha)
NO_SAMPLE_GRADS = [False, True]
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Pareto(p[0], p[1])


def test_infinite_moments():
    # Chainer 7.8.1: inf mean for alpha <= 1, inf variance for alpha <= 2.
    d = D.Pareto(numpy.array([1., 1.]), numpy.array([0.5, 1.5]))
    numpy.testing.assert_array_equal(d.mean.array, [numpy.inf, 3.])
    d = D.Pareto(numpy.array([1., 1.]), numpy.array([1.5, 3.]))
    numpy.testing.assert_allclose(d.variance.array, [numpy.inf, 0.75])


def test_outside_support():
    d = D.Pareto(numpy.array([1., 1.]), numpy.array([2., 2.]))
    y = d.log_prob(numpy.array([1., 0.999])).array
    numpy.testing.assert_allclose(y, [numpy.log(2.), -numpy.inf])


def test_kl_infinite():
    a = D.Pareto(numpy.array([0.5]), numpy.array([2.]))
    b = D.Pareto(numpy.array([1.]), numpy.array([2.]))
    assert kl_divergence(a, b).array[0] == numpy.inf
