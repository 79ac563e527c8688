"""The Bernoulli distribution."""

import numpy

import chainer
from chainer import backend
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import cache


def _bernoulli_log_prob(logit, x, binary_check=False):
    """log P(x) of a Bernoulli distribution of ``logit``, differentiable in
    the logit (Chainer's name for it); with ``binary_check``, values of
    ``x`` other than 0 and 1 get -inf."""
    xp = backend.get_array_module(logit, x)
    logit = chainer.as_variable(logit)
    # Chainer's form, kept for bit-identical values:
    # logit (x - 1) - log(1 + exp(-logit)); infinite logits (p of 0
    # or 1) give log x and log(1 - x).
    la = logit.array
    with numpy.errstate(over='ignore', invalid='ignore'):
        big = xp.isinf(xp.exp(-la)) | xp.isnan(la)
    if big.any():
        # where exp(-logit) overflows (Chainer gives -inf there), the
        # exact limit log(1 + exp(-logit)) = -logit, with the exp kept
        # finite so that gradients stay finite too
        safe = utils._where(big, 0, logit)
        log1pexp = utils._where(big, -logit, F.log(F.exp(-safe) + 1))
    else:
        log1pexp = F.log(F.exp(-logit) + 1)
    xa = chainer.as_array(x)
    if xa.dtype != la.dtype:  # integer samples, as Chainer takes them
        x = xa = xa.astype(la.dtype)
    if xp is numpy and ((xa < 0) | (xa > 1)).any():
        # Chainer's log(x) and log(1 - x) stop there, under NumPy's
        # errstate(invalid='raise')
        raise FloatingPointError('invalid value encountered in log')
    y = logit * (x - 1) - log1pexp
    if xp.isinf(la).any():
        with numpy.errstate(divide='ignore', invalid='ignore'):
            y = utils._where(la == numpy.inf, xp.log(xa), y)
            y = utils._where(la == -numpy.inf, xp.log(1 - xa), y)
    if binary_check:
        y = utils._where((xa == 0) | (xa == 1), y, -numpy.inf)
    return y


class Bernoulli(utils._ScalarEvent):
    """Bernoulli distribution over {0, 1}.

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The probability of 1.
        logit (~chainer.Variable or :ref:`ndarray`): ``log(p / (1 - p))``.
            Give either ``p`` or ``logit``.
        binary_check (bool): If True, :meth:`log_prob` and :meth:`prob` give
            ``-inf`` and 0 for values other than 0 and 1; otherwise they
            evaluate the continuous form ``x log p + (1 - x) log(1 - p)``
            (the form used to model pixel intensities in [0, 1]).

    >>> import numpy as np
    >>> d = Bernoulli(logit=np.zeros(2, np.float32))
    >>> d.log_prob(np.array([0., 1.], np.float32)).array
    array([-0.6931472, -0.6931472], dtype=float32)
    """

    _param_names = ('p',)  # batch shape and xp (``params`` is the logit)
    _support = '{0, 1}'

    def __init__(self, p=None, logit=None, binary_check=False):
        if (p is None) == (logit is None):
            raise ValueError(
                'Either `p` or `logit` (not both) must have a value.')
        self._p, self._logit = utils._as_params(p, logit)
        self.binary_check = binary_check

    @cache.cached_property
    def p(self):
        if self._p is not None:
            return self._p
        return F.sigmoid(self._logit)

    @cache.cached_property
    def logit(self):
        if self._logit is not None:
            return self._logit
        return F.log(self._p) - F.log1p(-self._p)

    @cache.cached_property
    def _log_p(self):
        # log p and log(1 - p), stable in the logit parametrization.
        if self._logit is not None:
            return -F.softplus(-self._logit), -F.softplus(self._logit)
        return F.log(self._p), F.log1p(-self._p)

    @property
    def params(self):
        return {'logit': self.logit}

    @property
    def mean(self):
        return self.p

    @cache.cached_property
    def variance(self):
        return self.p * (1 - self.p)

    @cache.cached_property
    def stddev(self):
        return F.sqrt(self.variance)

    @cache.cached_property
    def entropy(self):
        # Chainer's form in both parametrizations (bit-identical values).
        p = self.p
        return -(utils._modified_xlogx(p) + utils._modified_xlogx(1 - p))

    def _binary_mask(self, x):
        xa = chainer.as_array(x)
        return (xa == 0) | (xa == 1)

    def log_prob(self, x):
        x = utils._input(x, self.p.dtype)
        return _bernoulli_log_prob(self.logit, x, self.binary_check)

    def prob(self, x):
        x = utils._input(x, self.p.dtype)
        y = x * self.p + (1 - x) * (1 - self.p)
        if self.binary_check:
            y = utils._where(self._binary_mask(x), y, 0)
        return y

    def sample_n(self, n):
        p = self.p.array
        eps = self.xp.random.binomial(1, p, size=(n,) + p.shape)
        return utils._sample(eps)


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    log_p1, log_1mp1 = dist1._log_p
    log_p2, log_1mp2 = dist2._log_p
    p1 = dist1.p
    return p1 * (log_p1 - log_p2) + (1 - p1) * (log_1mp1 - log_1mp2)
