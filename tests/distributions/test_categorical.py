"""Tests of chainer.distributions.Categorical.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D
from chainer.distribution import kl_divergence

import dist_cases
from dist_cases import *  # noqa: F401,F403 (the shared checks)


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
SAMPLE_DTYPE = numpy.int64
X_DTYPE = numpy.int32
NOT_IMPLEMENTED = ('mean', 'variance', 'stddev', 'mode', 'covariance', 'prob',
                   'cdf', 'log_cdf', 'survival_function',
                   'log_survival_function', 'perplexity', 'support')


def make(*p):
    return D.Categorical(p[0])


def test_logit():
    p = numpy.array(PARAMS[0])
    d = D.Categorical(logit=numpy.log(p) + 1.)
    numpy.testing.assert_allclose(d.p.array, p, rtol=1e-12)
    numpy.testing.assert_allclose(d.log_p.array, numpy.log(p), rtol=1e-12)
    numpy.testing.assert_allclose(
        d.log_prob(numpy.array(X, numpy.int32)).array, EXPECTED['log_prob'],
        rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, EXPECTED['entropy'],
                                  rtol=1e-10)
    numpy.testing.assert_allclose(
        kl_divergence(d, make(*dist_cases.arrays(PARAMS2))).array, KL,
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
    y = make(*dist_cases.arrays(PARAMS)).log_prob(numpy.array([2., 0.]))
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
