"""Tests of chainer.distributions.Gumbel.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, -1.0], [2.0, 0.7, 1.2]]
PARAMS2 = [[1.2, 0.4, 2.0], [0.9, 1.6, 2.5]]
X = [0.1, 2.0, -3.0]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'real'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [1.6544313298030657, 1.904050965431073, -0.30734120211816063],
    'variance': [6.579736267392906, 0.8060176927556308, 2.368705056261446],
    'entropy': [2.270362845461478, 1.2205407209628003, 1.7595372216954874],
    'log_prob': [-1.714549938720115, -0.847152429903935, -3.8101449405973176],
}
KL = [3.524182177936159, 0.6349304382920469, 1.1746005158912929]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0.9566275172554476, 1.3404861409504427, -0.9041388252827876],
          [0.9785429388549872, 1.9171527276584666, -1.044939083567457]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Gumbel(p[0], p[1])
