"""The normal (Gaussian) distribution."""

import math

from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import argument
from chainer.utils import cache

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_HALF_LOG_2PIE = 0.5 * math.log(2 * math.pi * math.e)


class Normal(utils._LocScale):
    """Normal distribution :math:`N(\\mu, \\sigma^2)`.

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The mean :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The standard deviation
            :math:`\\sigma`.  Give either ``scale`` or ``log_scale``.
        log_scale (~chainer.Variable or :ref:`ndarray`): :math:`\\log
            \\sigma` (keyword only).

    Sampling is reparameterized (``loc + scale * eps``), so samples are
    differentiable with respect to the parameters.

    >>> import numpy as np
    >>> d = Normal(np.zeros(2, np.float32), np.ones(2, np.float32))
    >>> d.log_prob(np.zeros(2, np.float32)).array
    array([-0.9189385, -0.9189385], dtype=float32)
    """

    _noise = 'standard_normal'

    def __init__(self, loc, scale=None, **kwargs):
        log_scale, = argument.parse_kwargs(kwargs, ('log_scale', None))
        if (scale is None) == (log_scale is None):
            raise ValueError(
                'Either `scale` or `log_scale` (not both) must have a value.')
        self.loc, self._scale, self._log_scale = utils._as_params(
            loc, scale, log_scale)

    @cache.cached_property
    def scale(self):
        if self._scale is not None:
            return self._scale
        return F.exp(self._log_scale)

    @cache.cached_property
    def log_scale(self):
        if self._log_scale is not None:
            return self._log_scale
        return F.log(self._scale)

    @property
    def mean(self):
        return self.loc

    @cache.cached_property
    def variance(self):
        return self.scale ** 2

    @property
    def stddev(self):
        return self.scale

    @cache.cached_property
    def entropy(self):
        return self.log_scale + _HALF_LOG_2PIE

    def _z(self, x):
        return (x - self.loc) / self.scale

    # log_prob and prob keep Chainer's operation order, so that float32
    # results are bit-identical.
    def log_prob(self, x):
        return (-self.log_scale - _LOG_SQRT_2PI
                - 0.5 * (x - self.loc) ** 2 / self.variance)

    def prob(self, x):
        return (_INV_SQRT_2PI / self.scale
                * F.exp(-0.5 * (x - self.loc) ** 2 / self.variance))

    def cdf(self, x):
        return F.ndtr(self._z(x))

    def log_cdf(self, x):
        return F.log_ndtr(self._z(x))

    def survival_function(self, x):
        return F.ndtr(-self._z(x))

    def log_survival_function(self, x):
        return F.log_ndtr(-self._z(x))

    def icdf(self, x):
        x = utils._input(x, self.loc.dtype)
        return self.loc + self.scale * F.ndtri(x)


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1, dist2):
    diff = dist1.loc - dist2.loc
    return (dist2.log_scale - dist1.log_scale
            + 0.5 * (dist1.variance + diff * diff) / dist2.variance - 0.5)
