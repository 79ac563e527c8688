"""Tests of chainer.distributions.Exponential.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy

from chainer import distributions as D

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[2.0, 0.7, 1.3]]
PARAMS2 = [[0.9, 1.6, 1.3]]
X = [0.4, 1.9, 0.0]
Q = [0.3, 0.8, 0.05]
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'positive'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [0.5, 1.4285714285714286, 0.7692307692307692],
    'variance': [0.25, 2.0408163265306123, 0.5917159763313609],
    'entropy': [0.3068528194400547, 1.3566749439387324, 0.7376357355325089],
    'log_prob': [-0.10685281944005476, -1.6866749439387323, 0.26236426446749106],
    'cdf': [0.5506710358827783, 0.7355227387001759, 0.0],
    'icdf': [0.1783374719693662, 2.299197017763001, 0.039456380298115795],
}
KL = [0.24850769621777147, 0.4590357125298179, 0.0]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0.397937254081555, 1.7941868042369113, 0.7101716506185145],
          [0.39360057615863536, 0.7872121301364275, 0.7985840730335456]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Exponential(p[0])


def test_negative_x():
    d = make(*dist_cases.arrays(PARAMS, numpy.float32))
    y = d.log_prob(numpy.array([-1., 0., 1.], numpy.float32)).array
    assert y[0] == -numpy.inf
    numpy.testing.assert_allclose(y[1], numpy.log(PARAMS[0][1]), rtol=1e-6)
