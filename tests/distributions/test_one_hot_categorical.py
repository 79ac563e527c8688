"""Tests of chainer.distributions.OneHotCategorical.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]]
PARAMS2 = [[[0.1, 0.6, 0.3], [0.3, 0.3, 0.4]]]
X = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
Q = None
BATCH_SHAPE = (2,)
EVENT_SHAPE = (3,)
SUPPORT = None
RTOL64 = 1e-10
EXPECTED = {
    'mean': [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]],
    'variance': [[0.16000000000000003, 0.21, 0.25], [0.24, 0.09000000000000001, 0.21]],
    'log_prob': [-0.6931471805599453, -0.5108256237659907],
}
KL = [0.18609809382700082, 0.2197224577336218]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
          [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('stddev', 'mode', 'entropy', 'covariance', 'prob', 'cdf',
                   'log_cdf', 'survival_function', 'log_survival_function',
                   'perplexity', 'support')


def make(*p):
    return D.OneHotCategorical(p[0])
