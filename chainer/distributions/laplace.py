"""The Laplace distribution."""

import math


from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


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
        d = x - self.loc
        # 1/2 + sign(d)/2 * (1 - exp(-|d|/b))
        return 0.5 - 0.5 * F.sign(d) * F.expm1(-F.absolute(d) / self.scale)

    def icdf(self, x):
        x = utils._input(x, self.loc.dtype)
        c = x - 0.5
        return self.loc - self.scale * F.sign(c) * F.log1p(
            -2 * F.absolute(c))


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    b1, b2 = dist1.scale, dist2.scale
    d = F.absolute(dist1.loc - dist2.loc)
    return F.log(b2) - F.log(b1) + d / b2 + b1 / b2 * F.exp(-d / b1) - 1
