"""Tests of chainer.distributions.Chisquare.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[2.0, 0.7, 5.0]]
PARAMS2 = None
X = [0.4, 1.9, 3.3]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'positive'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [2.0, 0.7, 5.0],
    'variance': [4.0, 1.4, 10.0],
    'entropy': [1.6931471805599454, 0.046532342319312914, 2.423095090065],
    'log_prob': [-0.8931471805599454, -2.5443877663542698, -1.8766671191641306],
}
KL = None
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[1.59174901632622, 0.7890195187850328, 0.4984268008706409],
          [1.1510383983372796, 2.3673566296545614, 9.56408890178811]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Chisquare(p[0])
