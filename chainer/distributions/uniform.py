"""The continuous uniform distribution."""

import numpy

import chainer
from chainer import distribution
from chainer import functions as F
from chainer.distributions import utils
from chainer.utils import argument
from chainer.utils import cache


class Uniform(utils._ScalarEvent):
    """Uniform distribution on ``[low, high]``.

    Give the interval either as ``low`` and ``high`` or as ``loc`` (the
    lower end) and ``scale`` (the width); all are keyword arguments.

    Args:
        low (~chainer.Variable or :ref:`ndarray`): The lower end.
        high (~chainer.Variable or :ref:`ndarray`): The upper end.
        loc (~chainer.Variable or :ref:`ndarray`): The lower end.
        scale (~chainer.Variable or :ref:`ndarray`): ``high - low``.

    Sampling is reparameterized (``low + scale * u``).

    >>> import numpy as np
    >>> d = Uniform(low=np.array([0.], np.float32),
    ...             high=np.array([4.], np.float32))
    >>> d.cdf(np.array([1.], np.float32)).array
    array([0.25], dtype=float32)
    """

    _support = '[low, high]'

    def __init__(self, **kwargs):
        low, high, loc, scale = argument.parse_kwargs(
            kwargs, ('low', None), ('high', None), ('loc', None),
            ('scale', None))
        by_bounds = low is not None and high is not None
        by_loc = loc is not None and scale is not None
        given = sum(v is not None for v in (low, high, loc, scale))
        if by_bounds == by_loc or given != 2:
            raise ValueError('Either `low, high` or `loc, scale` (not both) '
                             'must have a value.')
        self._by_bounds = by_bounds
        # ``params`` gives the parametrization used
        self._param_names = ('low', 'high') if by_bounds else ('loc', 'scale')
        if by_bounds:
            self._low, self._high = utils._as_params(low, high)
            self._loc = self._scale = None
        else:
            self._loc, self._scale = utils._as_params(loc, scale)
            self._low = self._high = None

    @cache.cached_property
    def low(self):
        return self._low if self._by_bounds else self._loc

    @cache.cached_property
    def high(self):
        return self._high if self._by_bounds else self._loc + self._scale

    @cache.cached_property
    def loc(self):
        return self._low if self._by_bounds else self._loc

    @cache.cached_property
    def scale(self):
        return self._high - self._low if self._by_bounds else self._scale

    @cache.cached_property
    def mean(self):
        return (self.high + self.low) / 2  # Chainer's form

    @cache.cached_property
    def variance(self):
        return self.scale ** 2 / 12

    @cache.cached_property
    def stddev(self):
        return F.sqrt(self.variance)

    @cache.cached_property
    def entropy(self):
        return F.log(self.scale)

    def _inside(self, x):
        xa = chainer.as_array(x)
        return (xa >= self.low.array) & (xa <= self.high.array)

    def log_prob(self, x):
        x = utils._input(x, self.low.dtype)
        shape = numpy.broadcast_shapes(x.shape, self.batch_shape)
        y = F.broadcast_to(-F.log(self.scale), shape)
        return utils._where(self._inside(x), y, -numpy.inf)

    def cdf(self, x):
        x = utils._input(x, self.low.dtype)
        return F.clip((x - self.low) / self.scale, 0., 1.)

    def icdf(self, x):
        x = utils._input(x, self.low.dtype)
        return self.low + x * self.scale

    def sample_n(self, n):
        u = utils._uniform(self.xp, (n,) + self.batch_shape, self.low.dtype)
        return self.low + self.scale * u


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1, dist2):
    inside = ((dist2.low.array <= dist1.low.array)
              & (dist1.high.array <= dist2.high.array))
    kl = F.log(dist2.scale) - F.log(dist1.scale)
    return utils._where(inside, kl, numpy.inf)
