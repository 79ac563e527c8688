"""Tests of chainer.distributions.Bernoulli.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer import gradient_check
from chainer.distribution import kl_divergence


PARAMS = [[0.3, 0.8, 0.55]]
PARAMS2 = [[0.6, 0.1, 0.5]]
X = [1.0, 0.0, 1.0]
Q = None
BATCH_SHAPE = (3,)
EVENT_SHAPE = ()
SUPPORT = '{0, 1}'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [0.3, 0.8, 0.55],
    'variance': [0.21, 0.15999999999999998, 0.2475],
    'stddev': [0.458257569495584, 0.39999999999999997, 0.49749371855331],
    'entropy': [0.6108643020548934, 0.5004024235381879, 0.6881388137135884],
    'log_prob': [-1.203972804325936, -1.6094379124341005, -0.5978370007556203],
    'prob': [0.3, 0.19999999999999996, 0.55],
}
KL = [0.1837868973868121, 1.3627377539886139, 0.00500836684635686]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[0, 1, 0], [0, 1, 0]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('mode', 'covariance', 'cdf', 'log_cdf', 'survival_function',
                   'log_survival_function', 'perplexity')
PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']


def make(*p):
    return D.Bernoulli(p[0])


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
    assert s.dtype == numpy.int64
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
    assert d.sample(4).dtype == numpy.int64


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
        return kl_divergence(make(*p[:1]), make(*p[1:]))
    _check_grad(f, _params(numpy.float64) + _params(numpy.float64, PARAMS2))


def test_logit_parametrization():
    # Chainer 7.8.1: Bernoulli(logit=...) of the same p gives the same
    # values; params always holds the logit.
    p = numpy.array(PARAMS[0])
    d = D.Bernoulli(logit=numpy.log(p) - numpy.log1p(-p))
    numpy.testing.assert_allclose(d.p.array, p, rtol=1e-12)
    for name in ('log_prob', 'prob'):
        numpy.testing.assert_allclose(
            getattr(d, name)(_x(numpy.float64)).array, EXPECTED[name],
            rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, EXPECTED['entropy'],
                                  rtol=1e-10)
    assert list(D.Bernoulli(p).params) == ['logit']
    numpy.testing.assert_allclose(D.Bernoulli(p).logit.array,
                                  d.logit.array, rtol=1e-12)


def test_logit_is_stable():
    d = D.Bernoulli(logit=numpy.array([-1e4, 1e4], numpy.float32))
    y = d.log_prob(numpy.array([0., 1.], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0., 0.])
    numpy.testing.assert_array_equal(d.entropy.array, [0., 0.])


def test_continuous_and_binary_check():
    p = numpy.array([0.3, 0.8], numpy.float32)
    x = numpy.array([0.5, 1.], numpy.float32)
    # Chainer 7.8.1 values.
    numpy.testing.assert_allclose(
        D.Bernoulli(p).log_prob(x).array, [-0.78032386, -0.22314355],
        rtol=1e-6)
    y = D.Bernoulli(p, binary_check=True).log_prob(x).array
    assert y[0] == -numpy.inf
    numpy.testing.assert_allclose(y[1], -0.22314355, rtol=1e-6)
    numpy.testing.assert_allclose(D.Bernoulli(p).prob(x).array, [0.5, 0.8],
                                  rtol=1e-6)
    assert D.Bernoulli(p, binary_check=True).prob(x).array[0] == 0


def test_degenerate_p():
    d = D.Bernoulli(numpy.array([0., 1., 0.5]))
    with numpy.errstate(divide='ignore', invalid='ignore'):
        numpy.testing.assert_allclose(d.entropy.array, [0., 0., numpy.log(2)])
        numpy.testing.assert_allclose(
            d.log_prob(numpy.array([0., 1., 1.])).array,
            [0., 0., -numpy.log(2)])
        numpy.testing.assert_allclose(
            d.log_prob(numpy.array([1., 0., 1.])).array,
            [-numpy.inf, -numpy.inf, -numpy.log(2)])


def test_integer_x():
    d = make(*_params(numpy.float32))
    y = d.log_prob(numpy.array([1, 0, 1], numpy.int32))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, EXPECTED['log_prob'], rtol=1e-6)


@pytest.mark.parametrize('kwargs', [{}, {'p': 0.5, 'logit': 0.}])
def test_p_or_logit(kwargs):
    kwargs = {k: numpy.array(v) for k, v in kwargs.items()}
    with pytest.raises(ValueError, match='Either `p` or `logit`'):
        D.Bernoulli(**kwargs)
