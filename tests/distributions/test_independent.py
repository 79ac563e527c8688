"""Tests of chainer.distributions.Independent.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer.distribution import kl_divergence

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[[0.5, 1.5, -1.0], [0.2, 0.3, 0.1]],
          [[2.0, 0.7, 1.2], [0.9, 1.6, 2.5]]]
PARAMS2 = [[[1.2, 0.4, 2.0], [0.0, 0.1, -0.1]],
           [[0.9, 1.6, 2.5], [0.5, 0.7, 0.6]]]
X = [[0.1, 2.0, -3.0], [0.5, 0.4, 1.1]]
Q = None
BATCH_SHAPE = (2,)
EVENT_SHAPE = (3,)
SUPPORT = 'real'
RTOL64 = 1e-10
EXPECTED = {
    'mean': [[0.5, 1.5, -1.0], [0.2, 0.3, 0.1]],
    'variance': [[4.0, 0.48999999999999994, 1.44], [0.81, 2.5600000000000005, 6.25]],
    'stddev': [[2.0, 0.7, 1.2], [0.9, 1.6, 2.5]],
    'entropy': [4.775609393029185, 5.5377494450760825],
    'log_prob': [-4.939600322734401, -4.175258125631638],
    'prob': [0.0071574584741492565, 0.015371223436135461],
    'cdf': [0.015331328657890102, 0.21693894798159158],
    'log_cdf': [-4.177856919411151, -1.5281393107337562],
    'survival_function': [0.13101339636361298, 0.06047867130131667],
    'log_survival_function': [-2.0324556986917637, -2.805464516576449],
}
KL = [3.200976240318502, 8.747590741874175]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[[4.028104691935328, 1.7801100458570562, 0.17448558092688704],
           [2.2168038792813123, 3.288092784239948, -2.3431946996910273]],
          [[2.4001768350511785, 1.3940499541916114, -1.1238626221522694],
           [0.5695386517445351, 0.5304697138574048, 3.735683767407438]]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('mode', 'covariance', 'perplexity')


def make(*p):
    return D.Independent(D.Normal(p[0], p[1]))


def _normal(shape, dtype=numpy.float32):
    return D.Normal(numpy.zeros(shape, dtype), numpy.ones(shape, dtype))


@pytest.mark.parametrize('ndims, batch, event', [
    (None, (2,), (3, 4)), (0, (2, 3, 4), ()), (1, (2, 3), (4,)),
    (3, (), (2, 3, 4))])
def test_shapes(ndims, batch, event):
    d = D.Independent(_normal((2, 3, 4)), ndims)
    assert d.batch_shape == batch
    assert d.event_shape == event
    assert d.log_prob(numpy.zeros((2, 3, 4), numpy.float32)).shape == batch
    assert d.entropy.shape == batch
    assert d.sample((5,)).shape == (5, 2, 3, 4)


def test_too_many_ndims():
    with pytest.raises(ValueError, match='reinterpreted_batch_ndims'):
        D.Independent(_normal((2, 3)), 3)


def test_reductions():
    # Chainer 7.8.1 values for a standard normal with event (3,).
    d = D.Independent(_normal((2, 3)), 1)
    x = numpy.zeros((2, 3), numpy.float32)
    numpy.testing.assert_allclose(d.cdf(x).array, [0.125, 0.125])
    numpy.testing.assert_allclose(d.survival_function(x).array, 0.125)
    numpy.testing.assert_allclose(d.log_cdf(x).array, -2.0794415, rtol=1e-6)
    numpy.testing.assert_allclose(d.log_survival_function(x).array,
                                  -2.0794415, rtol=1e-6)
    numpy.testing.assert_allclose(d.prob(x).array, 0.06349364, rtol=1e-6)
    assert d.mean.shape == (2, 3)
    with pytest.raises(RuntimeError, match='not invertible'):
        d.icdf(x + 0.5)
    with pytest.raises(NotImplementedError):
        d.perplexity(x)


def test_covariance_block_diagonal():
    tril = numpy.array([[1., 0.], [0.5, 2.]], numpy.float32)
    base = D.MultivariateNormal(numpy.zeros((2, 2), numpy.float32),
                                scale_tril=numpy.stack([tril, tril]))
    cov = D.Independent(base, 1).covariance
    # Chainer 7.8.1 value.
    expected = [[1.0, 0.5, 0.0, 0.0], [0.5, 4.25, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.5], [0.0, 0.0, 0.5, 4.25]]
    assert cov.shape == (4, 4)
    numpy.testing.assert_allclose(cov.array, expected)
    with pytest.raises(NotImplementedError):
        D.Independent(_normal((2, 3)), 1).covariance


def test_kl_errors():
    with pytest.raises(ValueError, match='Event shapes do not match'):
        kl_divergence(D.Independent(_normal((2, 3)), 1),
                      D.Independent(_normal((2, 3)), 0))
    with pytest.raises(KeyError):
        kl_divergence(D.Independent(_normal((2, 3)), 1), _normal((3,)))


def test_kl_broadcast_prior():
    # The VAE pattern: a batch of posteriors against one prior.
    q = D.Independent(D.Normal(numpy.zeros((2, 3)), numpy.ones((2, 3))))
    p = D.Independent(D.Normal(numpy.zeros(3), 2 * numpy.ones(3)), 1)
    kl = kl_divergence(q, p)
    assert kl.shape == (2,)
    # Chainer 7.8.1 value.
    numpy.testing.assert_allclose(kl.array, 0.9544415416798359, rtol=1e-12)
