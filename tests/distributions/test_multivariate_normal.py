"""Tests of chainer.distributions.MultivariateNormal.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer import gradient_check
from chainer.distribution import kl_divergence


PARAMS = [[[0.5, -1.0], [0.2, 0.3]],
          [[[1.0, 0.0], [0.5, 2.0]], [[0.7, 0.0], [-0.3, 1.1]]]]
PARAMS2 = [[[0.1, 0.4], [-0.5, 1.0]],
           [[[1.5, 0.0], [0.2, 0.6]], [[1.0, 0.0], [0.4, 0.9]]]]
X = [[0.1, 2.0], [-0.4, 0.3]]
Q = None
BATCH_SHAPE = (2,)
EVENT_SHAPE = (2,)
SUPPORT = 'real'
RTOL64 = 2e-6
EXPECTED = {
    'mean': [[0.5, -1.0], [0.2, 0.3]],
    'entropy': [3.5310242469692907, 2.5765123022749377],
    'covariance': [[[1.0, 0.5], [0.5, 4.25]],
         [[0.48999999999999994, -0.21], [-0.21, 1.3000000000000003]]],
    'log_prob': [-3.891024351119995, -1.9711827039718628],
}
KL = [7.135133743286133, 1.1934118270874023]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[[2.264052391052246, 0.6823406219482422],
           [0.8851166069507599, 2.471361035108566]],
          [[2.367558002471924, -2.0207767486572266],
           [0.8650619089603424, -0.15151945650577547]]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('variance', 'stddev', 'mode', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')
PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']


def make(*p):
    return D.MultivariateNormal(p[0], scale_tril=p[1])


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


def test_scale_tril_required():
    with pytest.raises(ValueError, match='`scale_tril` must have a value'):
        D.MultivariateNormal(numpy.zeros(2, numpy.float32))
    with pytest.raises(TypeError, match='unexpected keyword'):
        D.MultivariateNormal(numpy.zeros(2, numpy.float32),
                             scale_tril=numpy.eye(2, dtype=numpy.float32),
                             foo=1)


def test_unbatched():
    tril = numpy.array([[1., 0.], [0.5, 2.]], numpy.float32)
    d = D.MultivariateNormal(numpy.zeros(2, numpy.float32), scale_tril=tril)
    assert d.batch_shape == () and d.d == 2
    # Chainer 7.8.1 values.
    y = d.log_prob(numpy.ones((3, 2), numpy.float32))
    assert y.shape == (3,)
    numpy.testing.assert_allclose(y.array, -3.0622742, rtol=1e-6)
    numpy.testing.assert_allclose(d.covariance.array,
                                  [[1., 0.5], [0.5, 4.25]])
