"""Tests of chainer.distributions.Normal.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer import gradient_check
from chainer.distribution import kl_divergence


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
PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']


def make(*p):
    return D.Normal(p[0], p[1])


def _params(dtype, params=PARAMS):
    return [numpy.array(v, dtype) for v in params]


def _x(dtype):
    return numpy.array(X, dtype)


@pytest.mark.parametrize('dtype, rtol', [
    (numpy.float64, RTOL64), (numpy.float32, 2e-5)])
def test_values(dtype, rtol):
    d = make(*_params(dtype))
    assert d.batch_shape == BATCH_SHAPE
    assert d.event_shape == EVENT_SHAPE
    if SUPPORT is not None:
        assert d.support == SUPPORT
    assert d.xp is numpy
    for name, expected in EXPECTED.items():
        if name in PROPERTIES:
            y = getattr(d, name)
        elif name == 'icdf':
            y = d.icdf(numpy.array(Q, dtype))
        else:
            y = getattr(d, name)(_x(dtype))
        assert y.dtype == dtype, name
        numpy.testing.assert_allclose(
            y.array, expected, rtol=rtol, atol=rtol, err_msg=name)


def test_params():
    p = _params(numpy.float64)
    d = make(*p)
    assert all(v.dtype == numpy.float64 for v in d.params.values())


def test_not_implemented():
    d = make(*_params(numpy.float64))
    for name in NOT_IMPLEMENTED:
        with pytest.raises(NotImplementedError):
            if name in PROPERTIES or name == 'support':
                getattr(d, name)
            else:
                getattr(d, name)(_x(numpy.float64))


@pytest.mark.parametrize('dtype, rtol', [
    (numpy.float64, RTOL64), (numpy.float32, 2e-5)])
def test_kl(dtype, rtol):
    if KL is None:
        pytest.skip('no KL divergence registered')
    kl = kl_divergence(make(*_params(dtype)), make(*_params(dtype, PARAMS2)))
    assert kl.dtype == dtype
    assert kl.shape == BATCH_SHAPE
    numpy.testing.assert_allclose(kl.array, KL, rtol=rtol, atol=rtol)


def test_sample():
    d = make(*_params(numpy.float64))
    numpy.random.seed(0)
    s = d.sample((2,))
    assert s.shape == (2,) + BATCH_SHAPE + EVENT_SHAPE
    assert s.dtype == numpy.float64
    # The same random stream as Chainer.
    numpy.testing.assert_allclose(s.array, SAMPLE, rtol=1e-6, atol=1e-6)
    numpy.random.seed(0)
    numpy.testing.assert_array_equal(d.sample((2,)).array, s.array)
    assert (s.creator is not None) == REPARAMETERIZED


def test_sample_shapes():
    d = make(*_params(numpy.float32))
    assert d.sample().shape == BATCH_SHAPE + EVENT_SHAPE
    assert d.sample((3, 2)).shape == (3, 2) + BATCH_SHAPE + EVENT_SHAPE
    assert d.sample_n(0).shape == (0,) + BATCH_SHAPE + EVENT_SHAPE
    assert d.sample(4).dtype == numpy.float32


def _check_grad(f, params, no_grads=None):
    params = tuple(params)
    shape = f(*params).shape
    gy = numpy.random.RandomState(0).uniform(0.5, 1.5, shape)
    gradient_check.check_backward(
        f, params, gy, eps=1e-5, atol=1e-6, rtol=1e-6, no_grads=no_grads)


def test_log_prob_grad():
    x = _x(numpy.float64)
    _check_grad(lambda *p: make(*p).log_prob(x), _params(numpy.float64))



def test_entropy_grad():
    _check_grad(lambda *p: make(*p).entropy, _params(numpy.float64))



def test_kl_grad():
    def f(*p):
        return kl_divergence(make(*p[:2]), make(*p[2:]))
    _check_grad(f, _params(numpy.float64) + _params(numpy.float64, PARAMS2))



def test_sample_grad():
    def f(*p):
        numpy.random.seed(1)
        return make(*p).sample((2,))
    _check_grad(f, _params(numpy.float64), no_grads=NO_SAMPLE_GRADS)


def test_log_scale():
    loc, scale = _params(numpy.float64)
    d = D.Normal(loc, log_scale=numpy.log(scale))
    numpy.testing.assert_allclose(d.scale.array, scale, rtol=1e-12)
    assert set(d.params) == {'loc', 'scale'}
    for name in ('log_prob', 'cdf', 'log_survival_function'):
        numpy.testing.assert_allclose(
            getattr(d, name)(_x(numpy.float64)).array, EXPECTED[name],
            rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, EXPECTED['entropy'],
                                  rtol=1e-10)
    numpy.testing.assert_allclose(
        D.Normal(loc, scale).log_scale.array, numpy.log(scale), rtol=1e-12)


def test_log_scale_grad():
    x = _x(numpy.float64)
    _check_grad(lambda m, s: D.Normal(m, log_scale=s).log_prob(x),
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
    loc, scale = _params(numpy.float64)
    _check_grad(lambda x: D.Normal(loc, scale).log_prob(x),
                [_x(numpy.float64)])
