"""The gamma distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Gamma(utils._ScalarEvent):
    """Gamma distribution with shape ``k`` and scale ``theta``.

    Its density is :math:`x^{k-1} e^{-x/\\theta} / (\\Gamma(k) \\theta^k)`
    for :math:`x > 0`.

    Args:
        k (~chainer.Variable or :ref:`ndarray`): The shape parameter.
        theta (~chainer.Variable or :ref:`ndarray`): The scale parameter.

    Samples are differentiable with respect to ``theta`` only (``theta``
    times a standard gamma draw).

    >>> import numpy as np
    >>> Gamma(np.array([2.], np.float32), np.array([3.], np.float32)).mean
    variable([6.])
    """

    _param_names = ('k', 'theta')
    _support = 'positive'

    def __init__(self, k, theta):
        self.k, self.theta = utils._as_params(k, theta)

    @cache.cached_property
    def mean(self):
        return self.k * self.theta

    @cache.cached_property
    def variance(self):
        return self.k * self.theta * self.theta  # Chainer's form

    @cache.cached_property
    def entropy(self):
        k = self.k
        return (k + F.log(self.theta) + F.lgamma(k)
                + (1 - k) * F.digamma(k))

    def log_prob(self, x):
        x = utils._input(x, self.k.dtype)
        inside = chainer.as_array(x) >= 0
        xs = utils._where(inside, x, 1)
        y = (-F.lgamma(self.k) - self.k * F.log(self.theta)
             + (self.k - 1) * F.log(xs) - xs / self.theta)
        return utils._where(inside, y, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        k = self.k.array
        shape = (n,) + self.batch_shape
        if xp is numpy:
            eps = numpy.random.standard_gamma(
                numpy.broadcast_to(k, shape)).astype(k.dtype)
        else:
            eps = xp.random.standard_gamma(
                xp.broadcast_to(k, shape),
                dtype=utils._gpu_dtype(k.dtype)).astype(k.dtype, copy=False)
        return self.theta * eps


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1, dist2):
    k1, t1 = dist1.k, dist1.theta
    k2, t2 = dist2.k, dist2.theta
    return ((k1 - k2) * F.digamma(k1) - F.lgamma(k1) + F.lgamma(k2)
            + k2 * (F.log(t2) - F.log(t1)) + k1 * (t1 - t2) / t2)
