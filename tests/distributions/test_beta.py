"""Tests of chainer.distributions.Beta.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy

from chainer import distributions as D

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, 3.0], [2.0, 0.7, 1.2]]
PARAMS2 = [[1.2, 0.4, 2.0], [0.9, 1.6, 2.5]]
X = [0.3, 0.6, 0.9]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = '[0, 1]'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [0.2, 0.6818181818181818, 0.7142857142857143],
    'variance': [0.045714285714285714, 0.06779442148760328, 0.03924646781789638],
    'entropy': [-0.7652789553347766, -0.2322558236446572, -0.34359767645193706],
    'log_prob': [-0.04237061422754529, -0.023663134426531188, 0.7695444964894989],
}
KL = [1.2061394693003749, 1.670249992255592, 0.9636667140887292]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0.08490675213331224, 0.9459216426082757, 0.6566836648734332],
          [0.12460063514984715, 0.8154920540348509, 0.9171940596220736]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Beta(p[0], p[1])


def test_outside_support():
    d = make(*dist_cases.arrays(PARAMS))
    y = d.log_prob(numpy.array([-1., -2., -0.5])).array
    numpy.testing.assert_array_equal(y, -numpy.inf)
