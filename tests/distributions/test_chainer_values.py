"""Float32 values bit-identical to Chainer 7.8.1 (recorded there, as hex):
the formulas keep Chainer's order of operations, so printed results match."""

import numpy
import pytest

import chainer
import chainer.distributions as D

f = numpy.float32
x3 = numpy.array([0.3, 1.7, 2.5], f)
loc, scale = numpy.array([0., 1., -1.], f), numpy.array([1., .5, 2.], f)
ab = numpy.array([2., .7, 3.], f), numpy.array([3., 1.5, .9], f)
mu = numpy.array([0., .4, -.3], f)
k, theta = numpy.array([1.5, 3., 4.5], f), numpy.array([.7, 1.3, 2.2], f)

CASES = {
    'normal_prob': lambda: D.Normal(loc, scale).prob(x3),
    'normal_log_prob': lambda: D.Normal(loc, scale).log_prob(x3),
    'bernoulli_log_prob': lambda: D.Bernoulli(
        p=numpy.array([.1, .5, .9], f)).log_prob(
            numpy.array([1., 0., 1.], f)),
    'bernoulli_logit_entropy': lambda: D.Bernoulli(
        logit=numpy.array([-2., .3, 3.], f)).entropy,
    'beta_log_prob': lambda: D.Beta(*ab).log_prob(
        numpy.array([.3, .6, .9], f)),
    'beta_variance': lambda: D.Beta(*ab).variance,
    'laplace_prob': lambda: D.Laplace(loc, scale).prob(x3),
    'lognormal_log_prob': lambda: D.LogNormal(mu, scale).log_prob(x3),
    'lognormal_variance': lambda: D.LogNormal(
        mu, numpy.array([1., .5, 1.2], f)).variance,
    'lognormal_entropy': lambda: D.LogNormal(mu, scale).entropy,
    'geometric_log_prob': lambda: D.Geometric(
        numpy.array([.2, .5, .7], f)).log_prob(numpy.array([1., 3., 2.], f)),
    'chisquare_log_prob': lambda: D.Chisquare(k).log_prob(x3),
    'gamma_variance': lambda: D.Gamma(k, theta).variance,
    'exponential_variance': lambda: D.Exponential(theta).variance,
    'uniform_mean': lambda: D.Uniform(
        low=numpy.array([-1.3, .1, -2.2], f),
        high=numpy.array([.7, 1.3, 2.9], f)).mean,
}

EXPECT = {
    'normal_prob': ['0x1.868a880000000p-2', '0x1.32a44e0000000p-2', '0x1.6164540000000p-5'],
    'normal_log_prob': ['-0x1.ed895a0000000p-1', '-0x1.34aec00000000p+0', '-0x1.9258d40000000p+1'],
    'bernoulli_log_prob':
        ['-0x1.26bb1c0000000p+1', '-0x1.62e4300000000p-1', '-0x1.af8e900000000p-4'],
    'bernoulli_logit_entropy':
        ['0x1.761a120000000p-2', '0x1.5d320e0000000p-1', '0x1.86e4340000000p-3'],
    'beta_log_prob': ['0x1.229a600000000p-1', '-0x1.64635c0000000p-2', '0x1.daedaa0000000p-1'],
    'beta_variance': ['0x1.47ae140000000p-5', '0x1.15af980000000p-4', '0x1.28c6940000000p-5'],
    'laplace_prob': ['0x1.7b4c860000000p-2', '0x1.f907d20000000p-3', '0x1.63e3980000000p-5'],
    'lognormal_log_prob':
        ['-0x1.c24b740000000p-2', '-0x1.94c2960000000p-1', '-0x1.5b4d500000000p+1'],
    'lognormal_variance': ['0x1.2aedfa0000000p+2', '0x1.9f900a0000000p-1', '0x1.dd75c80000000p+2'],
    'lognormal_entropy': ['0x1.6b3f8e0000000p+0', '0x1.2033dc0000000p+0', '0x1.cfe4dc0000000p+0'],
    'geometric_log_prob':
        ['-0x1.9c04200000000p+0', '-0x1.0a2b240000000p+1', '-0x1.8f869c0000000p+0'],
    'chisquare_log_prob':
        ['-0x1.24f0980000000p-1', '-0x1.80ed880000000p+0', '-0x1.ca01c40000000p+0'],
    'gamma_variance': ['0x1.7851ea0000000p-1', '0x1.447ae00000000p+2', '0x1.5c7ae40000000p+4'],
    'exponential_variance':
        ['0x1.0539780000000p+1', '0x1.2ef5660000000p-1', '0x1.a723f60000000p-3'],
    'uniform_mean': ['-0x1.3333320000000p-2', '0x1.6666660000000p-1', '0x1.6666680000000p-2'],
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_bit_identical_to_chainer(name):
    y = CASES[name]()
    assert y.dtype == numpy.float32
    expect = numpy.array([float.fromhex(h) for h in EXPECT[name]], f)
    numpy.testing.assert_array_equal(y.array, expect)


def test_bernoulli_extreme_logit_stays_finite():
    # Chainer's form overflows to -inf at logit=-1e4, x=0; we keep the limit
    logit = chainer.Variable(numpy.array([-1e4, 1e4], f))
    y = D.Bernoulli(logit=logit).log_prob(numpy.array([0., 1.], f))
    numpy.testing.assert_array_equal(y.array, [0., 0.])
    y.grad = numpy.ones(2, f)
    y.backward()
    assert numpy.isfinite(logit.grad).all()


def test_poisson_integer_counts_and_zero_dim_uniform():
    d = D.Poisson(numpy.array([0.5, 2.0], f))
    y = d.log_prob(numpy.array([1, 3], numpy.int32))
    assert y.dtype == f
    numpy.testing.assert_allclose(y.array, [-1.1931472, -1.712318], rtol=1e-6)
    u = D.Uniform(low=numpy.array(0., f), high=numpy.array(2., f))
    assert float(u.log_prob(numpy.array(0.5, f)).array) == pytest.approx(
        -0.6931472)
