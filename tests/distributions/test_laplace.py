"""Tests of chainer.distributions.Laplace.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[0.5, 1.5, -1.0], [2.0, 0.7, 1.2]]
PARAMS2 = [[1.2, 0.4, 2.0], [0.9, 1.6, 2.5]]
X = [0.1, 2.0, -3.0]
Q = [0.3, 0.8, 0.5]
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = 'real'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [0.5, 1.5, -1.0],
    'variance': [8.0, 0.9799999999999999, 2.88],
    'stddev': [2.8284271247461903, 0.9899494936611666, 1.697056274847714],
    'mode': [0.5, 1.5, -1.0],
    'entropy': [2.386294361119891, 1.336472236621213, 1.8754687373538999],
    'log_prob': [-1.5862943611198905, -1.0507579509069271, -2.5421354040205664],
    'prob': [0.20468268826949546, 0.34967261396925226, 0.0786981678489841],
    'cdf': [0.4093653765389909, 0.7552291702215235, 0.09443780141878094],
    'icdf': [-0.5216512475319814, 2.141403512311909, -1.0],
}
KL = [0.5452436142682584, 0.6050684050597934, 0.9733699744196718]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0.7054546624422073, 1.8939485192298888, -0.7239088356494904],
          [0.6881079375743866, 1.384017612040043, -0.5859854459762573]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('covariance', 'log_cdf', 'survival_function',
                   'log_survival_function', 'perplexity')


def make(*p):
    return D.Laplace(p[0], p[1])
