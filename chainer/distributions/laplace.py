"""The Laplace distribution."""

import math

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


def _laplace_cdf(x):
    """The CDF of the standard Laplace distribution (Chainer's name):
    1/2 + sign(x)/2 (1 - exp(-|x|)), differentiable."""
    x = chainer.as_variable(x)
    return 0.5 - 0.5 * F.sign(x) * F.expm1(-F.absolute(x))


def _laplace_icdf(x):
    """The inverse CDF of the standard Laplace distribution (Chainer's
    name): -sign(x - 1/2) log(1 - 2 |x - 1/2|), differentiable."""
    c = chainer.as_variable(x) - 0.5  # a 0-d array minus 0.5 is no array
    return -(F.sign(c) * F.log1p(-2 * F.absolute(c)))


class Laplace(utils._LocScale):
    """Laplace (double exponential) distribution.

    Its density is :math:`e^{-|x - \\mu| / b} / (2 b)`.

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`b`.

    Sampling is reparameterized.

    >>> import numpy as np
    >>> d = Laplace(np.array([0.], np.float32), np.array([1.], np.float32))
    >>> d.cdf(np.array([0.], np.float32)).array
    array([0.5], dtype=float32)
    """

    _noise = 'laplace'

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @cache.cached_property
    def variance(self):
        return 2 * self.scale ** 2

    @cache.cached_property
    def stddev(self):
        return math.sqrt(2) * self.scale

    @cache.cached_property
    def entropy(self):
        return 1 + F.log(2 * self.scale)

    def log_prob(self, x):
        return -F.log(2 * self.scale) - F.absolute(x - self.loc) / self.scale

    def prob(self, x):
        # Chainer's form (bit-identical float32 values)
        return 0.5 / self.scale * F.exp(
            -F.absolute(x - self.loc) / self.scale)

    def cdf(self, x):
        return _laplace_cdf((x - self.loc) / self.scale)

    def icdf(self, x):
        x = utils._input(x, self.loc.dtype)
        return self.loc + self.scale * _laplace_icdf(x)


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    b1, b2 = dist1.scale, dist2.scale
    d = F.absolute(dist1.loc - dist2.loc)
    return F.log(b2) - F.log(b1) + d / b2 + b1 / b2 * F.exp(-d / b1) - 1
