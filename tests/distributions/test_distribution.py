"""Tests of the Distribution base class and the KL registry."""

import numpy
import pytest

import chainer
from chainer import distribution
from chainer import distributions as D
from chainer.distribution import Distribution
from chainer.distribution import cross_entropy
from chainer.distribution import kl_divergence
from chainer.distribution import register_kl

PROPERTIES = ('batch_shape', 'covariance', 'entropy', 'event_shape', 'mean',
              'mode', 'params', 'stddev', 'support', 'variance', 'xp')
METHODS = ('cdf', 'icdf', 'log_cdf', 'log_prob', 'log_survival_function',
           'perplexity', 'prob', 'survival_function', 'sample_n')


def test_base_not_implemented():
    d = Distribution()
    for name in PROPERTIES:
        with pytest.raises(NotImplementedError):
            getattr(d, name)
    for name in METHODS:
        with pytest.raises(NotImplementedError):
            getattr(d, name)(numpy.array([0.5]))
    with pytest.raises(NotImplementedError):
        d.sample()


class _Counting(Distribution):
    """Draws 0, 1, 2, ... with batch shape (2,)."""

    @property
    def batch_shape(self):
        return (2,)

    @property
    def event_shape(self):
        return ()

    def sample_n(self, n):
        return chainer.Variable(numpy.arange(n * 2.).reshape(n, 2))


@pytest.mark.parametrize('sample_shape, shape', [
    ((), (2,)), (3, (3, 2)), ((3,), (3, 2)), ((2, 3), (2, 3, 2)),
    ((0,), (0, 2))])
def test_sample_reshapes_sample_n(sample_shape, shape):
    s = _Counting().sample(sample_shape)
    assert isinstance(s, chainer.Variable)
    assert s.shape == shape
    numpy.testing.assert_array_equal(s.array.ravel(),
                                     numpy.arange(s.size, dtype=float))


def test_kl_not_registered():
    with pytest.raises(KeyError):
        kl_divergence(_Counting(), _Counting())
    n = D.Normal(numpy.zeros(2), numpy.ones(2))
    with pytest.raises(KeyError):
        kl_divergence(n, D.Bernoulli(numpy.full(2, 0.5)))


def test_register_kl():
    class A(_Counting):
        pass

    class B(A):
        pass

    @register_kl(A, A)
    def _kl(d1, d2):
        return chainer.Variable(numpy.array([7., 7.]))

    try:
        assert _kl is not None  # the decorator returns the function
        numpy.testing.assert_array_equal(kl_divergence(A(), A()).array, 7.)
        # A subclass falls back on the registration of its base class.
        numpy.testing.assert_array_equal(kl_divergence(B(), A()).array, 7.)
    finally:
        del distribution._KLDIVERGENCE[A, A]


def test_normal_kl_doc_value():
    p = D.Normal(numpy.array([0.], numpy.float32),
                 numpy.array([1.], numpy.float32))
    q = D.Normal(numpy.array([1.], numpy.float32),
                 numpy.array([1.], numpy.float32))
    numpy.testing.assert_allclose(kl_divergence(p, q).array, [0.5])


def test_cross_entropy():
    p = D.Normal(numpy.array([0.5, 1.5]), numpy.array([2.0, 0.7]))
    q = D.Normal(numpy.array([1.2, 0.4]), numpy.array([0.9, 1.6]))
    h = cross_entropy(p, q)
    # H(p, q) = H(p) + KL(p || q); for normals also
    # log(s2) + 0.5 log(2 pi) + (s1^2 + (m1 - m2)^2) / (2 s2^2).
    m1, s1, m2, s2 = 0.5, 2.0, 1.2, 0.9
    expected = (numpy.log(s2) + 0.5 * numpy.log(2 * numpy.pi)
                + (s1 ** 2 + (m1 - m2) ** 2) / (2 * s2 ** 2))
    numpy.testing.assert_allclose(h.array[0], expected, rtol=1e-12)
    numpy.testing.assert_allclose(
        h.array, (p.entropy + kl_divergence(p, q)).array, rtol=1e-12)


def test_registered_pairs():
    # The KL divergences Chainer 7.8.1 registers (and only these among the
    # pairs of distributions).
    expected = {'Bernoulli', 'Beta', 'Categorical', 'Dirichlet',
                'Exponential', 'Gamma', 'Geometric', 'Gumbel', 'Independent',
                'Laplace', 'LogNormal', 'MultivariateNormal', 'Normal',
                'OneHotCategorical', 'Pareto', 'Poisson', 'Uniform'}
    pairs = {(a.__name__, b.__name__)
             for a, b in distribution._KLDIVERGENCE
             if a.__module__.startswith('chainer.distributions')}
    assert pairs == {(n, n) for n in expected}


def test_cached_properties_follow_backprop_mode():
    loc = chainer.Variable(numpy.array([0.5]))
    d = D.Normal(loc, log_scale=numpy.array([0.1]))
    with chainer.no_backprop_mode():
        assert d.scale.creator is None
    assert d.scale.creator is not None
    assert d.scale is d.scale


def test_all_distributions_exported():
    names = {'Bernoulli', 'Beta', 'Categorical', 'Cauchy', 'Chisquare',
             'Dirichlet', 'Exponential', 'Gamma', 'Geometric', 'Gumbel',
             'Independent', 'Laplace', 'LogNormal', 'MultivariateNormal',
             'Normal', 'OneHotCategorical', 'Pareto', 'Poisson', 'Uniform'}
    for name in names:
        cls = getattr(D, name)
        assert issubclass(cls, Distribution)
        assert cls.__module__.startswith('chainer.distributions.')
