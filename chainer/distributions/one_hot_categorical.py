"""The one-hot categorical distribution."""

from chainer import distribution
from chainer import functions as F
from chainer.distributions import categorical
from chainer.distributions import utils
from chainer.utils import cache


class OneHotCategorical(distribution.Distribution):
    """One-hot categorical distribution: a draw is a one-hot vector.

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The probabilities of the
            categories, on the last axis.

    >>> import numpy as np
    >>> d = OneHotCategorical(np.array([[0.2, 0.3, 0.5]], np.float32))
    >>> d.log_prob(np.array([[0., 0., 1.]], np.float32)).array
    array([-0.6931472], dtype=float32)
    """

    def __init__(self, p):
        self.p = utils._as_params(p)

    @cache.cached_property
    def log_p(self):
        return F.log(self.p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    @property
    def params(self):
        return {'p': self.p}

    @property
    def xp(self):
        return utils._xp(self.p)

    @property
    def mean(self):
        return self.p

    @cache.cached_property
    def variance(self):
        return self.p * (1 - self.p)

    def log_prob(self, x):
        x = utils._input(x, self.p.dtype)
        return F.sum(self.log_p * x, axis=-1)

    def sample_n(self, n):
        p = self.p.array
        xp = self.xp
        idx = categorical._sample_index(p, n)
        eye = xp.eye(p.shape[-1], dtype=p.dtype)
        return utils._sample(eye[idx])


@distribution.register_kl(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical(dist1, dist2):
    return F.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
