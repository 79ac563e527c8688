"""The Cauchy distribution."""

import math
import warnings

import numpy

import chainer
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Cauchy(utils._LocScale):
    """Cauchy distribution.

    Its density is :math:`1 / (\\pi \\gamma (1 + ((x - x_0) / \\gamma)^2))`.

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`x_0`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale
            :math:`\\gamma`.

    The mean and the variance are undefined (NaN).  Sampling is
    reparameterized.

    >>> import numpy as np
    >>> d = Cauchy(np.array([0.], np.float32), np.array([1.], np.float32))
    >>> d.cdf(np.array([0.], np.float32)).array
    array([0.5], dtype=float32)
    """

    _noise = 'standard_cauchy'

    def _nan(self):
        return utils._sample(self.xp.full(
            self.batch_shape, numpy.nan, dtype=self.loc.dtype))

    @property
    def mean(self):
        warnings.warn('Mean of the cauchy distribution is undefined.',
                      RuntimeWarning)
        return self._nan()

    @property
    def variance(self):
        warnings.warn('Variance of the cauchy distribution is undefined.',
                      RuntimeWarning)
        return self._nan()

    @cache.cached_property
    def entropy(self):
        return F.log(4 * math.pi * self.scale)

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -math.log(math.pi) - F.log(self.scale) - F.log1p(z * z)

    def cdf(self, x):
        return 0.5 + F.arctan((x - self.loc) / self.scale) / math.pi

    def icdf(self, x):
        x = utils._input(x, self.loc.dtype)
        # a Variable, so that x - 0.5 of a 0-d input stays an array
        return self.loc + self.scale * F.tan(
            (chainer.as_variable(x) - 0.5) * math.pi)
