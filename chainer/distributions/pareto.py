"""The Pareto distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Pareto(utils._ScalarEvent):
    """Pareto (type I) distribution.

    Its density is :math:`\\alpha x_m^\\alpha / x^{\\alpha + 1}` for
    :math:`x \\ge x_m`.

    Args:
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`x_m`.
        alpha (~chainer.Variable or :ref:`ndarray`): The shape
            :math:`\\alpha`.

    Sampling is reparameterized (``scale * exp(eps / alpha)`` with a
    standard exponential ``eps``).

    >>> import numpy as np
    >>> d = Pareto(np.array([1.], np.float32), np.array([3.], np.float32))
    >>> d.mean.array
    array([1.5], dtype=float32)
    """

    _param_names = ('scale', 'alpha')
    _support = '[scale, inf]'

    def __init__(self, scale, alpha):
        self.scale, self.alpha = utils._as_params(scale, alpha)

    @cache.cached_property
    def _log_scale(self):
        return F.log(self.scale)

    @cache.cached_property
    def _log_alpha(self):
        return F.log(self.alpha)

    @cache.cached_property
    def mean(self):
        a = self.alpha
        # Infinite for alpha <= 1; the safe branch avoids dividing by 0.
        finite = a.array > 1
        a_safe = utils._where(finite, a, 2)
        return utils._where(finite, a_safe * self.scale / (a_safe - 1),
                            numpy.inf)

    @cache.cached_property
    def variance(self):
        a = self.alpha
        finite = a.array > 2
        a_safe = utils._where(finite, a, 3)
        v = self.scale ** 2 * a_safe / ((a_safe - 1) ** 2 * (a_safe - 2))
        return utils._where(finite, v, numpy.inf)

    @cache.cached_property
    def entropy(self):
        return self._log_scale - self._log_alpha + 1 / self.alpha + 1

    def log_prob(self, x):
        x = utils._input(x, self.scale.dtype)
        inside = chainer.as_array(x) >= self.scale.array
        xs = utils._where(inside, x, 1)
        y = (self._log_alpha + self.alpha * self._log_scale
             - (self.alpha + 1) * F.log(xs))
        return utils._where(inside, y, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.batch_shape
        dtype = self.scale.dtype
        # Chainer's sample: NumPy's Pareto (Lomax) draws for alpha, in
        # float64 and then cast, shifted by one and scaled; the gradient
        # goes to scale only
        eps = xp.random.pareto(self.alpha.array, shape).astype(dtype,
                                                                copy=False)
        return self.scale * (eps + 1)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1, dist2):
    a1, a2 = dist1.alpha, dist2.alpha
    kl = (dist1._log_alpha - dist2._log_alpha
          + a2 * (dist1._log_scale - dist2._log_scale) + a2 / a1 - 1)
    # Infinite where the support of dist1 leaves that of dist2.
    inside = dist1.scale.array >= dist2.scale.array
    return utils._where(inside, kl, numpy.inf)
