"""Tests of chainer.distributions.Categorical.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer import gradient_check
from chainer.distribution import kl_divergence


PARAMS = [[[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]]
PARAMS2 = [[[0.1, 0.6, 0.3], [0.3, 0.3, 0.4]]]
X = [2, 0]
Q = None
BATCH_SHAPE = (2,)
EVENT_SHAPE = ()
SUPPORT = None
RTOL64 = 1e-10
EXPECTED = {
    'entropy': [1.0296530140645734, 0.8979457248567797],
    'log_prob': [-0.6931471805599453, -0.5108256237659907],
}
KL = [0.18609809382700082, 0.2197224577336218]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[2, 1], [2, 0]]
REPARAMETERIZED = False
NOT_IMPLEMENTED = ('mean', 'variance', 'stddev', 'mode', 'covariance', 'prob',
                   'cdf', 'log_cdf', 'survival_function',
                   'log_survival_function', 'perplexity', 'support')
PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']


def make(*p):
    return D.Categorical(p[0])


def _params(dtype, params=PARAMS):
    return [numpy.array(v, dtype) for v in params]


def _x(dtype):
    return numpy.array(X, numpy.int32)


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


def test_logit():
    p = numpy.array(PARAMS[0])
    d = D.Categorical(logit=numpy.log(p) + 1.)
    numpy.testing.assert_allclose(d.p.array, p, rtol=1e-12)
    numpy.testing.assert_allclose(d.log_p.array, numpy.log(p), rtol=1e-12)
    numpy.testing.assert_allclose(
        d.log_prob(_x(numpy.float64)).array, EXPECTED['log_prob'],
        rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, EXPECTED['entropy'],
                                  rtol=1e-10)
    numpy.testing.assert_allclose(
        kl_divergence(d, make(*_params(numpy.float64, PARAMS2))).array, KL,
        rtol=1e-10)


def test_p_or_logit():
    p = numpy.array(PARAMS[0])
    with pytest.raises(ValueError, match='Either `p` or `logit`'):
        D.Categorical()
    with pytest.raises(ValueError, match='Either `p` or `logit`'):
        D.Categorical(p, logit=p)
    with pytest.raises(TypeError, match='unexpected keyword'):
        D.Categorical(log_p=p)


def test_zero_probability():
    d = D.Categorical(numpy.array([[0., 0.5, 0.5]]))
    numpy.testing.assert_allclose(d.entropy.array, [numpy.log(2)])
    with numpy.errstate(divide='ignore'):
        assert d.log_prob(numpy.array([0])).array[0] == -numpy.inf


def test_log_prob_broadcast_and_float_x():
    d = D.Categorical(numpy.array([[0.2, 0.3, 0.5]]))
    y = d.log_prob(numpy.array([[2], [1]]))
    assert y.shape == (2, 1)
    numpy.testing.assert_allclose(y.array, numpy.log([[0.5], [0.3]]))
    y = make(*_params(numpy.float64)).log_prob(numpy.array([2., 0.]))
    numpy.testing.assert_allclose(y.array, EXPECTED['log_prob'])


def test_sample_2d_batch():
    # The same stream as Chainer 7.8.1 for a (2, 2) batch.
    p = numpy.array([[[0.3, 0.7, 0.0], [0.6, 0.25, 0.15]],
                     [[0.2, 0.4, 0.4], [0.3, 0.2, 0.5]]])
    numpy.random.seed(0)
    s = D.Categorical(p).sample(3).array
    assert s.shape == (3, 2, 2)
    assert s.dtype == numpy.int64
    numpy.testing.assert_array_equal(
        s, [[[1, 0], [1, 1]], [[1, 0], [2, 2]], [[1, 1], [2, 2]]])
    numpy.random.seed(0)
    onehot = D.OneHotCategorical(p).sample(3).array
    numpy.testing.assert_array_equal(onehot.argmax(-1), s)
