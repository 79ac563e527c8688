"""The Gumbel distribution."""

import math


from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache

_EULER = 0.57721566490153286061


class Gumbel(utils._LocScale):
    """Gumbel (type-I extreme value) distribution.

    Its density is :math:`e^{-(z + e^{-z})} / \\beta` with
    :math:`z = (x - \\mu) / \\beta`.

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale
            :math:`\\beta`.

    Sampling is reparameterized.

    >>> import numpy as np
    >>> d = Gumbel(np.array([0.], np.float32), np.array([1.], np.float32))
    >>> d.log_prob(np.array([0.], np.float32)).array
    array([-1.], dtype=float32)
    """

    _noise = 'gumbel'

    @cache.cached_property
    def _log_scale(self):
        return F.log(self.scale)

    @cache.cached_property
    def mean(self):
        return self.loc + _EULER * self.scale

    @cache.cached_property
    def variance(self):
        return (math.pi ** 2 / 6) * self.scale ** 2

    @cache.cached_property
    def entropy(self):
        return self._log_scale + (_EULER + 1)

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -self._log_scale - z - F.exp(-z)


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    r = dist1.scale / dist2.scale
    d = (dist1.loc - dist2.loc) / dist2.scale
    return (dist2._log_scale - dist1._log_scale + _EULER * (r - 1)
            + F.exp(-d + F.lgamma(r + 1)) + d - 1)
