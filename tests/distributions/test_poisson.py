"""Tests of chainer.distributions.Poisson.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy

from chainer import distributions as D

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[2.0, 0.7, 4.5]]
PARAMS2 = [[0.9, 1.6, 3.0]]
X = [0.0, 3.0, 5.0]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'non negative integer'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [2.0, 0.7, 4.5],
    'variance': [2.0, 0.7, 4.5],
    'log_prob': [-2.0, -3.561784301044252, -1.7671047589006763],
}
KL = [0.49701539243554305, 0.3213249987708724, 0.32459298648673984]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[3.0, 0.0, 9.0], [0.0, 0.0, 9.0]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('stddev', 'mode', 'entropy', 'covariance', 'prob', 'cdf',
                   'log_cdf', 'survival_function', 'log_survival_function',
                   'perplexity')


def make(*p):
    return D.Poisson(p[0])


def test_outside_support():
    d = make(*dist_cases.arrays(PARAMS))
    y = d.log_prob(numpy.array([-1., -2., -0.5])).array
    numpy.testing.assert_array_equal(y, -numpy.inf)
