"""The exponential distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Exponential(utils._ScalarEvent):
    """Exponential distribution with rate ``lam``.

    Its density is :math:`\\lambda e^{-\\lambda x}` for :math:`x \\ge 0`.

    Args:
        lam (~chainer.Variable or :ref:`ndarray`): The rate
            :math:`\\lambda`.

    Sampling is reparameterized (``eps / lam``).

    >>> import numpy as np
    >>> Exponential(np.array([2.], np.float32)).mean.array
    array([0.5], dtype=float32)
    """

    _param_names = ('lam',)
    _support = 'positive'

    def __init__(self, lam):
        self.lam = utils._as_params(lam)

    @cache.cached_property
    def _log_lam(self):
        return F.log(self.lam)

    @cache.cached_property
    def mean(self):
        return 1 / self.lam

    @cache.cached_property
    def variance(self):
        return (1 / self.lam) ** 2  # Chainer's form

    @cache.cached_property
    def entropy(self):
        return 1 - self._log_lam

    def log_prob(self, x):
        x = utils._input(x, self.lam.dtype)
        y = self._log_lam - self.lam * x
        return utils._where(chainer.as_array(x) >= 0, y, -numpy.inf)

    def cdf(self, x):
        return -F.expm1(-self.lam * x)

    def icdf(self, x):
        x = utils._input(x, self.lam.dtype)
        # a Variable, so that -x of a 0-d input stays an array
        return -F.log1p(-chainer.as_variable(x)) / self.lam

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.batch_shape
        dtype = self.lam.dtype
        if xp is numpy:
            eps = numpy.random.standard_exponential(shape).astype(dtype)
        else:
            eps = xp.random.standard_exponential(
                shape, dtype=utils._gpu_dtype(dtype)).astype(dtype, copy=False)
        return eps / self.lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1, dist2):
    return (dist1._log_lam - dist2._log_lam
            + dist2.lam / dist1.lam - 1)
