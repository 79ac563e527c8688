"""The Dirichlet distribution."""

import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution over the probability simplex.

    Its density is :math:`\\Gamma(\\alpha_0) / \\prod_i \\Gamma(\\alpha_i)
    \\prod_i x_i^{\\alpha_i - 1}` with :math:`\\alpha_0 = \\sum_i
    \\alpha_i`.

    Args:
        alpha (~chainer.Variable or :ref:`ndarray`): The concentration
            parameters, on the last axis (the event axis).

    Samples are not differentiable.

    >>> import numpy as np
    >>> d = Dirichlet(np.array([[1., 1., 2.]], np.float32))
    >>> d.mean.array
    array([[0.25, 0.25, 0.5 ]], dtype=float32)
    """

    def __init__(self, alpha):
        self.alpha = utils._as_params(alpha)

    @cache.cached_property
    def alpha0(self):
        return F.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @property
    def params(self):
        return {'alpha': self.alpha}

    @property
    def support(self):
        return '[0, 1]'

    @property
    def xp(self):
        return utils._xp(self.alpha)

    @cache.cached_property
    def _alpha0_e(self):
        return F.expand_dims(self.alpha0, -1)

    @cache.cached_property
    def mean(self):
        return self.alpha / self._alpha0_e

    @cache.cached_property
    def variance(self):
        a0 = self._alpha0_e
        return self.alpha * (a0 - self.alpha) / (a0 * a0 * (a0 + 1))

    @cache.cached_property
    def _log_norm(self):
        # log B(alpha) = sum lgamma(alpha_i) - lgamma(alpha_0)
        return F.sum(F.lgamma(self.alpha), axis=-1) - F.lgamma(self.alpha0)

    @cache.cached_property
    def entropy(self):
        a, a0 = self.alpha, self.alpha0
        k = a.shape[-1]
        return (self._log_norm + (a0 - k) * F.digamma(a0)
                - F.sum((a - 1) * F.digamma(a), axis=-1))

    def log_prob(self, x):
        x = utils._input(x, self.alpha.dtype)
        return F.sum((self.alpha - 1) * F.log(x), axis=-1) - self._log_norm

    def sample_n(self, n):
        xp = self.xp
        a = self.alpha.array
        # One row of gammas per (batch element, draw), normalized.
        shape = self.batch_shape + (n,) + self.event_shape
        a_b = xp.broadcast_to(a[..., None, :], shape)
        # normalized in float64, then cast (NumPy's dirichlet, Chainer's
        # sample: the same draws, the same rounding)
        g = xp.random.standard_gamma(a_b.astype(numpy.float64))
        g = (g / g.sum(axis=-1, keepdims=True)).astype(a.dtype, copy=False)
        return utils._sample(xp.moveaxis(g, -2, 0))


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1, dist2):
    a1, a2 = dist1.alpha, dist2.alpha
    return (dist2._log_norm - dist1._log_norm
            + F.sum((a1 - a2) * (F.digamma(a1) - F.digamma(dist1._alpha0_e)),
                    axis=-1))
