"""Tests of chainer.distributions.Dirichlet.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[[0.6, 0.9, 1.5], [1.8, 0.3, 0.9]]]
PARAMS2 = [[[0.7, 1.7, 1.1], [1.1, 1.1, 1.3]]]
X = [[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]
Q = None
BATCH_SHAPE = (2,)
EVENT_SHAPE = (3,)
SUPPORT = '[0, 1]'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [[0.19999999999999998, 0.3, 0.5], [0.6, 0.09999999999999999, 0.3]],
    'variance': [[0.04, 0.052500000000000005, 0.0625],
         [0.060000000000000005, 0.022500000000000003, 0.052500000000000005]],
    'entropy': [-1.059304687932482, -2.357309616091386],
    'log_prob': [0.7669181755174734, -1.7620360384049505],
}
KL = [0.4975244643965232, 1.9580398531407486]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[[0.06797031313180923, 0.14174090325832367, 0.7902888059616089],
           [0.60384601354599, 6.823778676334769e-05, 0.3960857391357422]],
          [[0.6936234831809998, 0.15407434105873108, 0.15230220556259155],
           [0.27234509587287903, 0.6389432549476624, 0.08871164917945862]]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('stddev', 'mode', 'covariance', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.Dirichlet(p[0])
