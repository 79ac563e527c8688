"""Tests of chainer.distributions.Normal.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D

import dist_cases
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
    'variance': [4.0, 0.48999999999999994, 1.44],
    'stddev': [2.0, 0.7, 1.2],
    'entropy': [2.112085713764618, 1.0622635892659402, 1.6012600899986273],
    'log_prob': [-1.632085713764618, -0.8173656300822668, -2.4901489788875164],
    'prob': [0.19552134698772797, 0.4415934440272377, 0.08289761566062392],
    'cdf': [0.42074029056089696, 0.7624747379730235, 0.0477903522728147],
    'log_cdf': [-0.8657395226815952, -0.2711859015765807, -3.040931495152975],
    'survival_function': [0.579259709439103, 0.2375252620269765, 0.9522096477271853],
    'log_survival_function': [-0.5460043537227743, -1.4374812947345739, -0.0489700502344155],
    'icdf': [-0.5488010254160818, 2.08913486350104, -1.0],
}
KL = [1.4730972420538333, 0.6587098231844679, 1.0691691750802004]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[4.028104691935328, 1.7801100458570562, 0.17448558092688704],
          [4.981786398402916, 2.807290593104977, -2.1727334558516933]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('mode', 'covariance', 'perplexity')


def make(*p):
    return D.Normal(p[0], p[1])


def test_log_scale():
    loc, scale = dist_cases.arrays(PARAMS)
    d = D.Normal(loc, log_scale=numpy.log(scale))
    numpy.testing.assert_allclose(d.scale.array, scale, rtol=1e-12)
    assert set(d.params) == {'loc', 'scale'}
    for name in ('log_prob', 'cdf', 'log_survival_function'):
        numpy.testing.assert_allclose(
            getattr(d, name)(numpy.array(X)).array, EXPECTED[name],
            rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, EXPECTED['entropy'],
                                  rtol=1e-10)
    numpy.testing.assert_allclose(
        D.Normal(loc, scale).log_scale.array, numpy.log(scale), rtol=1e-12)


def test_log_scale_grad():
    x = numpy.array(X)
    dist_cases.check_grad(lambda m, s: D.Normal(m, log_scale=s).log_prob(x),
                [numpy.array(PARAMS[0]), numpy.log(PARAMS[1])])


def test_scale_errors():
    loc = numpy.zeros(2, numpy.float32)
    with pytest.raises(ValueError, match='`scale` or `log_scale`'):
        D.Normal(loc)
    with pytest.raises(ValueError, match='`scale` or `log_scale`'):
        D.Normal(loc, loc + 1, log_scale=loc)
    with pytest.raises(TypeError, match="unexpected keyword argument.*'foo'"):
        D.Normal(loc, loc + 1, foo=1)


def test_scalar_scale_and_broadcast_x():
    d = D.Normal(numpy.zeros(2, numpy.float32), 1.)
    assert d.scale.dtype == numpy.float32
    y = d.log_prob(numpy.zeros((3, 2), numpy.float32))
    assert y.shape == (3, 2) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, -0.9189385, rtol=1e-6)
    # A float64 x evaluates in the distribution's dtype (as in Chainer).
    assert d.log_prob(numpy.zeros(2)).dtype == numpy.float32


def test_float16():
    d = D.Normal(numpy.zeros(2, numpy.float16), numpy.ones(2, numpy.float16))
    y = d.log_prob(numpy.zeros(2, numpy.float16))
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array, -0.9189, rtol=1e-3)
    assert d.sample(3).dtype == numpy.float16


def test_grad_wrt_x():
    loc, scale = dist_cases.arrays(PARAMS)
    dist_cases.check_grad(lambda x: D.Normal(loc, scale).log_prob(x),
                [numpy.array(X)])
