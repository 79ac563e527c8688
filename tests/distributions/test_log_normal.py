"""Tests of chainer.distributions.LogNormal.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, -1.0], [2.0, 0.7, 1.2]]
PARAMS2 = [[1.2, 0.4, 2.0], [0.9, 1.6, 2.5]]
X = [0.4, 1.9, 2.2]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'positive'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [12.182493960703473, 5.725901475421305, 0.7557837414557255],
    'variance': [7954.670768472807, 20.731086521259268, 1.8396906425683943],
    'entropy': [2.612085713764618, 2.5622635892659402, 0.6012600899986273],
    'log_prob': [-0.9465299115395418, -1.9555611006193772, -3.0003354121132912],
}
KL = [1.473097242053833, 0.6587098231844679, 1.0691691750802004]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[56.15438047452149, 5.930509010629817, 1.1906335744286813],
          [145.7344891152665, 16.564976102571638, 0.11386594360243636]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.LogNormal(p[0], p[1])
