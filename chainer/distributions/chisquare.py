"""The chi-square distribution."""

import math

import numpy

from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Chisquare(utils._ScalarEvent):
    """Chi-square distribution with ``k`` degrees of freedom.

    Args:
        k (~chainer.Variable or :ref:`ndarray`): The degrees of freedom.

    Samples are not differentiable.

    >>> import numpy as np
    >>> Chisquare(np.array([2.], np.float32)).variance.array
    array([4.], dtype=float32)
    """

    _param_names = ('k',)
    _support = 'positive'

    def __init__(self, k):
        self.k = utils._as_params(k)

    @cache.cached_property
    def _half_k(self):
        return 0.5 * self.k

    @property
    def mean(self):
        return self.k

    @cache.cached_property
    def variance(self):
        return 2 * self.k

    @cache.cached_property
    def entropy(self):
        hk = self._half_k
        return (hk + math.log(2.) + F.lgamma(hk)
                + (1 - hk) * F.digamma(hk))

    def log_prob(self, x):
        x = utils._input(x, self.k.dtype)
        hk = self._half_k
        # Chainer's order of terms (bit-identical float32 values)
        return (-F.lgamma(hk) - hk * math.log(2.) + (hk - 1) * F.log(x)
                - 0.5 * x)

    def sample_n(self, n):
        xp = self.xp
        k = self.k.array
        shape = (n,) + self.batch_shape
        if xp is numpy:
            eps = numpy.random.chisquare(k, size=shape).astype(k.dtype)
        else:
            eps = xp.random.chisquare(
                k, size=shape,
                dtype=utils._gpu_dtype(k.dtype)).astype(k.dtype, copy=False)
        return utils._sample(eps)
