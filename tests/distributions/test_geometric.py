"""Tests of chainer.distributions.Geometric.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.3, 0.8, 0.5]]
PARAMS2 = [[0.6, 0.1, 0.5]]
X = [1.0, 3.0, 2.0]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'positive integer'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [3.3333333333333335, 1.25, 2.0],
    'variance': [7.777777777777778, 0.3124999999999999, 2.0],
    'log_prob': [-1.203972804325936, -3.4420193761824107, -1.3862943611198906],
}
KL = [0.6126229912893741, 1.703422192485767, 0.0]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[3.0, 1.0, 2.0], [3.0, 1.0, 2.0]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('stddev', 'mode', 'entropy', 'covariance', 'prob', 'cdf',
                   'log_cdf', 'survival_function', 'log_survival_function',
                   'perplexity')


def make(*p):
    return D.Geometric(p[0])
