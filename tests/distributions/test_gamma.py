"""Tests of chainer.distributions.Gamma.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy

from chainer import distributions as D

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, 3.0], [2.0, 0.7, 1.2]]
PARAMS2 = [[1.2, 0.4, 2.0], [0.9, 1.6, 2.5]]
X = [0.4, 1.9, 2.2]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'positive'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [1.0, 1.0499999999999998, 3.5999999999999996],
    'variance': [2.0, 0.7349999999999999, 4.319999999999999],
    'entropy': [0.7837571104739336, 1.0042978314367341, 2.029900067156966],
    'log_prob': [-0.6607931672675952, -1.7375641176561731, -1.4965304635466021],
}
KL = [0.369619860936766, 0.44452045598725043, 0.13757550469892266]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0.6080037795214088, 1.8026977286181782, 9.906141309109483],
          [0.38296513492132056, 0.7410838630683232, 4.073925925686608]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = [True, False]
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Gamma(p[0], p[1])


def test_outside_support():
    d = make(*dist_cases.arrays(PARAMS))
    y = d.log_prob(numpy.array([-1., -2., -0.5])).array
    numpy.testing.assert_array_equal(y, -numpy.inf)
