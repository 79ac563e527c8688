"""Reinterprets batch dimensions of a distribution as event dimensions."""

import numpy

from chainer import distribution
from chainer import functions as F


class Independent(distribution.Distribution):
    """Treats the rightmost batch dimensions of a distribution as event
    dimensions.

    The elements along those dimensions become one joint (independent)
    event: :meth:`log_prob` and :attr:`entropy` sum over them, :meth:`prob`
    and :meth:`cdf` multiply.

    Args:
        distribution (~chainer.Distribution): The base distribution.
        reinterpreted_batch_ndims (int): How many of the rightmost batch
            dimensions become event dimensions.  By default all but the
            first one (``max(len(batch_shape) - 1, 0)``).

    >>> import numpy as np
    >>> import chainer.distributions as D
    >>> base = D.Normal(np.zeros((4, 3), np.float32),
    ...                 np.ones((4, 3), np.float32))
    >>> d = D.Independent(base)
    >>> d.batch_shape, d.event_shape
    ((4,), (3,))
    >>> d.log_prob(np.zeros((4, 3), np.float32)).shape
    (4,)
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        self.distribution = distribution
        nb = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(nb - 1, 0)
        if reinterpreted_batch_ndims > nb:
            raise ValueError(
                'reinterpreted_batch_ndims must be less than or equal to the '
                'number of dimensions of `distribution.batch_shape`.')
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def _n_batch(self):
        return len(self.distribution.batch_shape) - \
            self.reinterpreted_batch_ndims

    @property
    def batch_shape(self):
        return self.distribution.batch_shape[:self._n_batch]

    @property
    def event_shape(self):
        return (self.distribution.batch_shape[self._n_batch:]
                + self.distribution.event_shape)

    def _reduce(self, op, y):
        r = self.reinterpreted_batch_ndims
        if r == 0:
            return y
        axis = tuple(range(y.ndim - r, y.ndim))
        return op(y, axis=axis)

    def _sum(self, y):
        return self._reduce(F.sum, y)

    def _prod(self, y):
        return self._reduce(F.prod, y)

    @property
    def params(self):
        return self.distribution.params

    @property
    def support(self):
        return self.distribution.support

    @property
    def xp(self):
        return self.distribution.xp

    @property
    def mean(self):
        return self.distribution.mean

    @property
    def mode(self):
        return self.distribution.mode

    @property
    def variance(self):
        return self.distribution.variance

    @property
    def stddev(self):
        return self.distribution.stddev

    @property
    def covariance(self):
        """The covariance over the whole (flattened) event: a block-diagonal
        matrix of the base distribution's covariances."""
        cov = self.distribution.covariance
        r = self.reinterpreted_batch_ndims
        if r == 0:
            return cov
        batch = self.batch_shape
        m = int(numpy.prod(self.distribution.batch_shape[self._n_batch:],
                           dtype=numpy.int64))
        e = cov.shape[-1]
        cov = F.reshape(cov, batch + (m, e, 1, e))
        eye = self.xp.eye(m, dtype=cov.dtype).reshape(m, 1, m, 1)
        return F.reshape(cov * eye, batch + (m * e, m * e))

    @property
    def entropy(self):
        return self._sum(self.distribution.entropy)

    def log_prob(self, x):
        return self._sum(self.distribution.log_prob(x))

    def prob(self, x):
        return self._prod(self.distribution.prob(x))

    def cdf(self, x):
        return self._prod(self.distribution.cdf(x))

    def log_cdf(self, x):
        return self._sum(self.distribution.log_cdf(x))

    def survival_function(self, x):
        return self._prod(self.distribution.survival_function(x))

    def log_survival_function(self, x):
        return self._sum(self.distribution.log_survival_function(x))

    def perplexity(self, x):
        return self._prod(self.distribution.perplexity(x))

    def icdf(self, x):
        raise RuntimeError('Cumulative distribution function for '
                           'multivariate variable is not invertible.')

    def sample_n(self, n):
        return self.distribution.sample_n(n)


@distribution.register_kl(Independent, Independent)
def _kl_independent_independent(dist1, dist2):
    if dist1.event_shape != dist2.event_shape:
        raise ValueError('Event shapes do not match.')
    # The base KL, summed over the reinterpreted dimensions of dist1.
    kl = distribution.kl_divergence(dist1.distribution, dist2.distribution)
    return dist1._sum(kl)

