"""The categorical distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import argument
from chainer.utils import cache


def _select(log_p, x):
    """``log_p[..., x]`` along the last axis, ``x`` broadcast with the
    batch."""
    x = chainer.as_array(x)
    xp = utils._xp(log_p)
    k = log_p.shape[-1]
    shape = numpy.broadcast_shapes(x.shape, log_p.shape[:-1])
    lp = F.reshape(F.broadcast_to(log_p, shape + (k,)), (-1, k))
    t = xp.broadcast_to(x, shape).reshape(-1).astype(numpy.int32)
    return F.reshape(F.select_item(lp, t), shape)


def _sample_index(p, n):
    """Draws ``n`` category indices per batch element, shape
    ``(n,) + batch``."""
    xp = chainer.backend.get_array_module(p)
    if xp is numpy:
        # NumPy's choice (Chainer's sampler) refuses probabilities that do
        # not sum to 1 within the square root of their dtype's epsilon
        tol = numpy.sqrt(numpy.finfo(p.dtype).eps)
        if (abs(p.astype(numpy.float64).sum(axis=-1) - 1) > tol).any():
            raise ValueError('probabilities do not sum to 1')
    u = utils._uniform(xp, p.shape[:-1] + (n,), p.dtype)
    u = xp.moveaxis(u, -1, 0)
    cdf = xp.cumsum(p, axis=-1)
    idx = (u[..., None] > cdf).sum(axis=-1)
    return xp.minimum(idx, p.shape[-1] - 1).astype(numpy.int64)


class Categorical(distribution.Distribution):
    """Categorical distribution over ``{0, ..., K - 1}``.

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The probabilities of the
            categories, on the last axis.
        logit (~chainer.Variable or :ref:`ndarray`): Unnormalized log
            probabilities (keyword only).  Give either ``p`` or ``logit``.

    >>> import numpy as np
    >>> d = Categorical(np.array([[0.2, 0.3, 0.5]], np.float32))
    >>> d.log_prob(np.array([2])).array
    array([-0.6931472], dtype=float32)
    """

    def __init__(self, p=None, **kwargs):
        logit, = argument.parse_kwargs(kwargs, ('logit', None))
        if (p is None) == (logit is None):
            raise ValueError(
                'Either `p` or `logit` (not both) must have a value.')
        self._p, self._logit = utils._as_params(p, logit)

    @cache.cached_property
    def p(self):
        if self._p is not None:
            return self._p
        # exp(log_softmax), Chainer's rounding
        return F.exp(self.log_p)

    @cache.cached_property
    def log_p(self):
        if self._logit is not None:
            return F.log_softmax(self._logit, axis=-1)
        return F.log(self._p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'p': self.p}

    @property
    def xp(self):
        return utils._xp(self.p)

    @cache.cached_property
    def entropy(self):
        if self._logit is not None:
            return -F.sum(self.p * self.log_p, axis=-1)
        return -F.sum(utils._modified_xlogx(self._p), axis=-1)

    def log_prob(self, x):
        return _select(self.log_p, x)

    def sample_n(self, n):
        return utils._sample(_sample_index(self.p.array, n))


@distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(dist1, dist2):
    return F.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
