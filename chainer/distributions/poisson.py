"""The Poisson distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Poisson(utils._ScalarEvent):
    """Poisson distribution with rate ``lam``.

    Its mass function is :math:`\\lambda^x e^{-\\lambda} / x!` (evaluated
    through :math:`\\Gamma(x + 1)`, so non-integer ``x`` gives a value).

    Args:
        lam (~chainer.Variable or :ref:`ndarray`): The rate
            :math:`\\lambda`.

    Samples are not differentiable.

    >>> import numpy as np
    >>> d = Poisson(np.array([2.], np.float32))
    >>> d.log_prob(np.array([0.], np.float32)).array
    array([-2.], dtype=float32)
    """

    _param_names = ('lam',)
    _support = 'non negative integer'

    def __init__(self, lam):
        self.lam = utils._as_params(lam)

    @cache.cached_property
    def _log_lam(self):
        return F.log(self.lam)

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    def log_prob(self, x):
        x = utils._input(x, self.lam.dtype)
        if not isinstance(x, chainer.Variable) and x.dtype.kind in 'iub':
            x = x.astype(self.lam.dtype)  # counts given as integers
        inside = chainer.as_array(x) >= 0
        xs = utils._where(inside, x, 0)
        y = xs * self._log_lam - self.lam - F.lgamma(xs + 1)
        return utils._where(inside, y, -numpy.inf)

    def sample_n(self, n):
        lam = self.lam.array
        eps = self.xp.random.poisson(lam, size=(n,) + self.batch_shape)
        return utils._sample(eps.astype(lam.dtype))


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1, dist2):
    l1, l2 = dist1.lam, dist2.lam
    return l1 * (dist1._log_lam - dist2._log_lam) - l1 + l2
