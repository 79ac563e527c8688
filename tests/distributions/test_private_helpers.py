"""The module-level helpers of the distributions that Chainer code reaches
by name, and 0-d inputs of icdf."""

import warnings

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import gradient_check
from chainer.distributions import bernoulli, laplace, multivariate_normal


def test_laplace_cdf_and_icdf():
    x = numpy.array([0.5, -1.], numpy.float32)
    numpy.testing.assert_allclose(
        laplace._laplace_cdf(x).array, [1 - 0.5 * numpy.exp(-0.5),
                                        0.5 * numpy.exp(-1.)], rtol=1e-6)
    p = numpy.array([0.2, 0.7])
    numpy.testing.assert_allclose(
        laplace._laplace_icdf(p).array, [numpy.log(0.4), -numpy.log(0.6)])
    gradient_check.check_backward(laplace._laplace_icdf, p, numpy.ones(2))
    gradient_check.check_double_backward(
        laplace._laplace_cdf, x.astype('d'), numpy.ones(2), numpy.ones(2))


def test_bernoulli_log_prob():
    logit = numpy.array([0.5, -1.], numpy.float32)
    x = numpy.array([1., 0.], numpy.float32)
    p = 1 / (1 + numpy.exp(-logit))
    numpy.testing.assert_allclose(
        bernoulli._bernoulli_log_prob(logit, x).array,
        [numpy.log(p[0]), numpy.log(1 - p[1])], rtol=1e-6)
    y = bernoulli._bernoulli_log_prob(logit, numpy.array([.5, 0.], 'f'),
                                      binary_check=True)
    assert y.array[0] == -numpy.inf
    # outside [0, 1]: Chainer's log(x) and log(1 - x) under
    # errstate(invalid='raise')
    with pytest.raises(FloatingPointError, match='invalid value .* log'):
        bernoulli._bernoulli_log_prob(logit, numpy.array([2., 0.], 'f'))
    gradient_check.check_backward(
        lambda lg: bernoulli._bernoulli_log_prob(lg, x.astype('d')),
        logit.astype('d'), numpy.ones(2))


def test_backward_without_grads_to_make():
    # nothing requires a gradient: backward of a multi-element output does
    # nothing, as in Chainer (no initial error needed)
    logit = numpy.full((2, 3), numpy.inf, numpy.float32)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        y = bernoulli._bernoulli_log_prob(logit, numpy.ones((2, 3), 'f'))
    y.backward()
    assert y.grad is None


@pytest.mark.parametrize('lower', [True, False])
def test_triangular_inv(lower):
    rng = numpy.random.RandomState(0)
    a = rng.uniform(0.5, 1.5, (3, 3)) + 2 * numpy.eye(3)
    a = numpy.tril(a) if lower else numpy.triu(a)
    numpy.testing.assert_allclose(
        multivariate_normal._triangular_inv(a, lower=lower).array,
        numpy.linalg.inv(a), rtol=1e-10)
    # only the triangle is read: the other entries get no gradient
    gradient_check.check_backward(
        lambda m: multivariate_normal._triangular_inv(m, lower=lower),
        a, rng.randn(3, 3))


def test_icdf_of_0d_inputs():
    q = numpy.array(0.75)
    zero, one = numpy.array(0.), numpy.array(1.)
    assert D.Cauchy(zero, one).icdf(q).array == pytest.approx(1.)
    assert D.Laplace(zero, one).icdf(q).array == pytest.approx(-numpy.log(.5))
    assert D.Exponential(one).icdf(q).array == pytest.approx(numpy.log(4.))


def test_cauchy_mean_and_variance_warn():
    d = D.Cauchy(numpy.zeros(2, 'f'), numpy.ones(2, 'f'))
    for name in ('mean', 'variance'):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            value = getattr(d, name)
        assert numpy.isnan(value.array).all()
        assert [x.category for x in w] == [RuntimeWarning]
        assert 'of the cauchy distribution is undefined' in str(w[0].message)
    assert isinstance(d.mean, chainer.Variable)


def test_bernoulli_log_prob_of_integer_samples():
    d = D.Bernoulli(logit=numpy.array([0.5, -1.], numpy.float32))
    x = numpy.array([1, 0], numpy.int64)
    y = d.log_prob(x)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(
        y.array, d.log_prob(x.astype(numpy.float32)).array)
    kl = chainer.kl_divergence(d, D.Bernoulli(logit=numpy.zeros(2, 'f')))
    assert kl.dtype == numpy.float32 and (kl.array > 0).all()
