"""Tests of chainer.distributions.Cauchy.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, -1.0], [2.0, 0.7, 1.2]]
PARAMS2 = None
X = [0.1, 2.0, -3.0]
Q = [0.3, 0.8, 0.5]
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'real'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [numpy.nan, numpy.nan, numpy.nan],
    'variance': [numpy.nan, numpy.nan, numpy.nan],
    'entropy': [3.224171427529236, 2.1743493030305583, 2.713345803763245],
    'log_prob': [-1.877097779562627, -1.200299737004211, -2.656187389923297],
    'cdf': [0.4371670418109988, 0.6974315432887466, 0.17202086962263063],
    'icdf': [-0.9530850560107218, 2.4634673443298216, -1.0],
}
KL = None
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[9.31679654436612, 1.8057337088256409, -3.2931753949689027],
          [-12.05425398249817, 1.3240295668045687, -0.8811418315980817]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Cauchy(p[0], p[1])
