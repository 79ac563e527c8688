"""The multivariate normal distribution."""

import math

from chainer import backend
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import argument
from chainer.utils import cache

_LOG_2PI = math.log(2 * math.pi)


def _tril_inv(scale_tril):
    """Inverts a batch of lower-triangular matrices of any batch shape.
    Only the lower triangles are read: the upper entries get no gradient
    (as Chainer's triangular inverse; a plain inverse would give them one,
    and an optimizer would then fill them in)."""
    d = scale_tril.shape[-1]
    xp = backend.get_array_module(scale_tril)
    mask = xp.tril(xp.ones((d, d), scale_tril.dtype))
    inv = F.batch_inv(F.reshape(scale_tril * mask, (-1, d, d)))
    return F.reshape(inv, scale_tril.shape)


def _triangular_inv(x, lower=True):
    """The inverse of a (lower or upper) triangular matrix ``x``,
    differentiable (Chainer's name). Only the triangle is read (the other
    entries get no gradient); the inverse of a triangular matrix is
    triangular, so a general inverse gives it."""
    xp = backend.get_array_module(x)
    n = x.shape[-1]
    ones = xp.ones((n, n), x.dtype)
    mask = xp.tril(ones) if lower else xp.triu(ones)
    return F.inv(x * mask)


def _matvec(m, v):
    """``m @ v`` for a batch of matrices and vectors, broadcast."""
    return F.squeeze(F.matmul(m, F.expand_dims(v, -1)), -1)


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution :math:`N(\\mu, L L^T)`.

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The mean, of shape
            ``batch_shape + (d,)``.
        scale_tril (~chainer.Variable or :ref:`ndarray`): The lower
            triangular Cholesky factor ``L`` of the covariance, of shape
            ``batch_shape + (d, d)`` (keyword only, required).

    Sampling is reparameterized (``loc + L @ eps``).

    >>> import numpy as np
    >>> d = MultivariateNormal(np.zeros(2, np.float32),
    ...                        scale_tril=np.eye(2, dtype=np.float32))
    >>> d.event_shape, d.batch_shape
    ((2,), ())
    >>> d.log_prob(np.zeros(2, np.float32)).array
    array(-1.837877, dtype=float32)
    """

    def __init__(self, loc, **kwargs):
        scale_tril, = argument.parse_kwargs(kwargs, ('scale_tril', None))
        if scale_tril is None:
            raise ValueError('`scale_tril` must have a value.')
        self.loc, self.scale_tril = utils._as_params(loc, scale_tril)
        self.d = self.loc.shape[-1]

    @cache.cached_property
    def _logdet_scale(self):
        diag = F.diagonal(self.scale_tril, axis1=-2, axis2=-1)
        return F.sum(F.log(F.absolute(diag)), axis=-1)

    @cache.cached_property
    def _scale_tril_inv(self):
        return _tril_inv(self.scale_tril)

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    @property
    def support(self):
        return 'real'

    @property
    def xp(self):
        return utils._xp(self.loc)

    @property
    def mean(self):
        return self.loc

    @cache.cached_property
    def covariance(self):
        return F.matmul(self.scale_tril, self.scale_tril, transb=True)

    @cache.cached_property
    def entropy(self):
        return self._logdet_scale + 0.5 * self.d * (1 + _LOG_2PI)

    def log_prob(self, x):
        x = utils._input(x, self.loc.dtype)
        z = _matvec(self._scale_tril_inv, x - self.loc)
        return (-0.5 * F.sum(z * z, axis=-1) - self._logdet_scale
                - 0.5 * self.d * _LOG_2PI)

    def sample_n(self, n):
        eps = utils._standard_normal(
            self.xp, (n,) + self.loc.shape, self.loc.dtype)
        return self.loc + _matvec(self.scale_tril, eps)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(dist1, dist2):
    inv2 = dist2._scale_tril_inv
    m = F.matmul(inv2, dist1.scale_tril)  # L2^-1 L1
    trace = F.sum(m * m, axis=(-2, -1))
    z = _matvec(inv2, dist2.loc - dist1.loc)
    mahalanobis = F.sum(z * z, axis=-1)
    return (0.5 * (trace + mahalanobis - dist1.d)
            + dist2._logdet_scale - dist1._logdet_scale)
