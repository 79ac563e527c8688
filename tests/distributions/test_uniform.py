"""Tests of chainer.distributions.Uniform.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer import gradient_check
from chainer.distribution import kl_divergence


PARAMS = [[0.5, 1.5, -1.0], [2.5, 2.2, 0.5]]
PARAMS2 = [[-0.5, 1.0, -1.5], [3.0, 2.5, 0.6]]
X = [0.6, 2.0, 0.0]
Q = [0.3, 0.8, 0.5]
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = '[low, high]'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [1.5, 1.85, -0.25],
    'variance': [0.3333333333333333, 0.04083333333333335, 0.1875],
    'stddev': [0.5773502691896257, 0.20207259421636906, 0.4330127018922193],
    'entropy': [0.6931471805599453, -0.35667494393873217, 0.4054651081081644],
    'log_prob': [-0.6931471805599453, 0.35667494393873217, -0.4054651081081644],
    'cdf': [0.04999999999999999, 0.7142857142857141, 0.6666666666666666],
    'icdf': [1.1, 2.06, -0.25],
}
KL = [0.5596157879354228, 0.7621400520468966, 0.33647223662121295]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[1.5976270078546495, 2.000632556460694, -0.09585493589253424],
          [1.5897663659937937, 1.7965583595372334, -0.03115883040001588]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('mode', 'covariance', 'prob', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')
PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']


def make(*p):
    return D.Uniform(low=p[0], high=p[1])


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


def test_loc_scale():
    low, high = _params(numpy.float64)
    d = D.Uniform(loc=low, scale=high - low)
    assert set(d.params) == {'loc', 'scale'}
    assert set(make(low, high).params) == {'low', 'high'}
    numpy.testing.assert_allclose(d.high.array, high, rtol=1e-12)
    for name in ('log_prob', 'cdf'):
        numpy.testing.assert_allclose(
            getattr(d, name)(_x(numpy.float64)).array, EXPECTED[name],
            rtol=1e-10)


def test_outside_support():
    d = D.Uniform(low=numpy.array([0.5, 1.5]), high=numpy.array([2.5, 2.2]))
    x = numpy.array([0., 5.])
    numpy.testing.assert_array_equal(d.log_prob(x).array, -numpy.inf)
    numpy.testing.assert_array_equal(d.cdf(x).array, [0., 1.])
    # The end points belong to the support.
    y = d.log_prob(numpy.array([0.5, 2.2])).array
    assert numpy.isfinite(y).all()


def test_kl_not_contained():
    a = D.Uniform(low=numpy.array([0.]), high=numpy.array([2.]))
    b = D.Uniform(low=numpy.array([0.5]), high=numpy.array([3.]))
    assert kl_divergence(a, b).array[0] == numpy.inf


@pytest.mark.parametrize('kwargs', [
    {}, {'low': 0.}, {'low': 0., 'scale': 1.},
    {'low': 0., 'high': 1., 'loc': 0.}])
def test_errors(kwargs):
    kwargs = {k: numpy.array([v]) for k, v in kwargs.items()}
    with pytest.raises(ValueError, match='`low, high` or `loc, scale`'):
        D.Uniform(**kwargs)


def test_positional_rejected():
    with pytest.raises(TypeError):
        D.Uniform(numpy.zeros(1), numpy.ones(1))
