"""Tests of chainer.distributions.LogNormal.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer import gradient_check
from chainer.distribution import kl_divergence


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
PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']


def make(*p):
    return D.LogNormal(p[0], p[1])


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
