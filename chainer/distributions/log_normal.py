"""The log-normal distribution."""

import math

from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


class LogNormal(utils._ScalarEvent):
    """Log-normal distribution: ``exp`` of a normal variable.

    Args:
        mu (~chainer.Variable or :ref:`ndarray`): The mean of ``log x``.
        sigma (~chainer.Variable or :ref:`ndarray`): The standard deviation
            of ``log x``.

    Sampling is reparameterized (``exp(mu + sigma * eps)``).

    >>> import numpy as np
    >>> d = LogNormal(np.array([0.], np.float32), np.array([1.], np.float32))
    >>> d.log_prob(np.array([1.], np.float32)).array
    array([-0.9189385], dtype=float32)
    """

    _param_names = ('mu', 'sigma')
    _support = 'positive'

    def __init__(self, mu, sigma):
        self.mu, self.sigma = utils._as_params(mu, sigma)

    @cache.cached_property
    def _log_sigma(self):
        return F.log(self.sigma)

    @cache.cached_property
    def mean(self):
        return F.exp(self.mu + 0.5 * self.sigma ** 2)

    @cache.cached_property
    def variance(self):
        s2 = self.sigma ** 2
        # Chainer's form (exp - 1, not expm1), for identical values
        return (F.exp(s2) - 1) * F.exp(2 * self.mu + s2)

    @cache.cached_property
    def entropy(self):
        # Chainer's order of terms (bit-identical float32 values)
        return 0.5 + _LOG_SQRT_2PI + self._log_sigma + self.mu

    def log_prob(self, x):
        x = utils._input(x, self.mu.dtype)
        log_x = F.log(x)
        # Chainer's order of terms (bit-identical float32 values)
        return (-_LOG_SQRT_2PI - self._log_sigma - log_x
                - 0.5 * (log_x - self.mu) ** 2 / self.sigma ** 2)

    def sample_n(self, n):
        eps = utils._standard_normal(
            self.xp, (n,) + self.batch_shape, self.mu.dtype)
        return F.exp(self.mu + self.sigma * eps)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1, dist2):
    diff = dist1.mu - dist2.mu
    return (dist2._log_sigma - dist1._log_sigma
            + 0.5 * (dist1.sigma ** 2 + diff * diff) / dist2.sigma ** 2
            - 0.5)
