"""The beta distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Beta(utils._ScalarEvent):
    """Beta distribution on [0, 1].

    Its density is :math:`x^{a-1} (1-x)^{b-1} / B(a, b)`.

    Args:
        a (~chainer.Variable or :ref:`ndarray`): The first shape parameter.
        b (~chainer.Variable or :ref:`ndarray`): The second shape parameter.

    Samples are not differentiable.

    >>> import numpy as np
    >>> d = Beta(np.array([2.], np.float32), np.array([2.], np.float32))
    >>> d.mean.array
    array([0.5], dtype=float32)
    """

    _param_names = ('a', 'b')
    _support = '[0, 1]'

    def __init__(self, a, b):
        self.a, self.b = utils._as_params(a, b)

    @cache.cached_property
    def _a_plus_b(self):
        return self.a + self.b

    @cache.cached_property
    def mean(self):
        return self.a / self._a_plus_b

    @cache.cached_property
    def variance(self):
        apb = self._a_plus_b
        return self.a * self.b / apb ** 2 / (apb + 1)  # Chainer's order

    @cache.cached_property
    def entropy(self):
        a, b, apb = self.a, self.b, self._a_plus_b
        return (utils._lbeta(a, b) - (a - 1) * F.digamma(a)
                - (b - 1) * F.digamma(b) + (apb - 2) * F.digamma(apb))

    def log_prob(self, x):
        x = utils._input(x, self.a.dtype)
        xa = chainer.as_array(x)
        inside = (xa >= 0) & (xa <= 1)
        xs = utils._where(inside, x, 0.5)
        # Chainer's form (log(1 - x), not log1p), for identical values
        y = ((self.a - 1) * F.log(xs) + (self.b - 1) * F.log(1 - xs)
             - utils._lbeta(self.a, self.b))
        return utils._where(inside, y, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        a, b = self.a.array, self.b.array
        shape = (n,) + self.batch_shape
        if xp is numpy:
            eps = numpy.random.beta(a, b, size=shape).astype(a.dtype)
        else:
            eps = xp.random.beta(
                a, b, size=shape,
                dtype=utils._gpu_dtype(a.dtype)).astype(a.dtype, copy=False)
        return utils._sample(eps)


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1, dist2):
    a1, b1, apb1 = dist1.a, dist1.b, dist1._a_plus_b
    a2, b2 = dist2.a, dist2.b
    return (utils._lbeta(a2, b2) - utils._lbeta(a1, b1)
            + (a1 - a2) * F.digamma(a1) + (b1 - b2) * F.digamma(b1)
            + (a2 - a1 + b2 - b1) * F.digamma(apb1))
