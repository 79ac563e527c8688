"""The geometric distribution."""

from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


class Geometric(utils._ScalarEvent):
    """Geometric distribution: the number of trials up to the first
    success, on ``{1, 2, ...}``.

    Its mass function is :math:`p (1 - p)^{x - 1}`.

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The success probability.

    Samples are not differentiable.

    >>> import numpy as np
    >>> Geometric(np.array([0.25], np.float32)).mean.array
    array([4.], dtype=float32)
    """

    _param_names = ('p',)
    _support = 'positive integer'

    def __init__(self, p):
        self.p = utils._as_params(p)

    @cache.cached_property
    def mean(self):
        return 1 / self.p

    @cache.cached_property
    def variance(self):
        return (1 - self.p) / self.p ** 2

    def log_prob(self, x):
        x = utils._input(x, self.p.dtype)
        # Chainer's form (log(1 - p)), for bit-identical values
        return (x - 1) * F.log(1 - self.p) + F.log(self.p)

    def sample_n(self, n):
        xp = self.xp
        p = self.p.array
        eps = xp.random.geometric(p, size=(n,) + self.batch_shape)
        return utils._sample(eps.astype(p.dtype))


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1, dist2):
    p1, p2 = dist1.p, dist2.p
    return (F.log(p1) - F.log(p2)
            + (1 / p1 - 1) * (F.log1p(-p1) - F.log1p(-p2)))

