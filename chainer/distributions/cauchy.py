"""The Cauchy distribution."""

import math

import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Cauchy(distribution.Distribution):
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

    def __init__(self, loc, scale):
        self.loc, self.scale = utils._as_params(loc, scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    @property
    def support(self):
        return 'real'

    @property
    def xp(self):
        return utils._xp(self.loc)

    def _nan(self):
        return utils._sample(self.xp.full(
            self.batch_shape, numpy.nan, dtype=self.loc.dtype))

    @property
    def mean(self):
        return self._nan()

    @property
    def variance(self):
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
        return self.loc + self.scale * F.tan((x - 0.5) * math.pi)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.batch_shape
        dtype = self.loc.dtype
        if xp is numpy:
            eps = numpy.random.standard_cauchy(shape).astype(dtype)
        else:
            eps = (xp.random.standard_normal(shape, dtype=dtype)
                   / xp.random.standard_normal(shape, dtype=dtype))
        return self.loc + self.scale * eps
