"""Uniform initializers: Uniform and the fan-scaled LeCun, Glorot, He."""

from chainer.initializer import Initializer
from chainer.initializers._common import check_dtype, fill_random, pop_rng
from chainer.initializers.normal import _fan_scaled


class Uniform(Initializer):
    """Draws from :math:`U(-\\mathrm{scale}, \\mathrm{scale})`.

    Args:
        scale (float): The half width of the interval.
        dtype: The dtype of the arrays it fills.
        rng: (keyword only) The random state to draw from (default: the
            global ``numpy.random``, or ``cupy.random`` for CuPy arrays).

    >>> import numpy as np
    >>> a = np.empty((100,), np.float32)
    >>> Uniform(0.5)(a)
    >>> bool(abs(a).max() <= 0.5)
    True
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng = pop_rng(type(self).__name__, kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        check_dtype(self, array)
        fill_random(array, self.rng, 'uniform', -self.scale, self.scale)


class LeCunUniform(Initializer):
    """Draws from :math:`U(-s, s)` with :math:`s = \\mathrm{scale}
    \\sqrt{3/\\mathrm{fan_{in}}}`.

    Args:
        scale (float): A multiplier of the half width.
        dtype: The dtype of the arrays it fills.
        rng: (keyword only) The random state to draw from.
    """

    _numerator = 3.0
    _fan = 'fan_in'

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = pop_rng(type(self).__name__, kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        s = _fan_scaled(self, array, self._numerator, self._fan)
        if s is not None:
            fill_random(array, self.rng, 'uniform', -s, s)


class GlorotUniform(LeCunUniform):
    """Draws from :math:`U(-s, s)` with :math:`s = \\mathrm{scale}
    \\sqrt{6/(\\mathrm{fan_{in}} + \\mathrm{fan_{out}})}`."""

    _fan = 'fan_avg'


class HeUniform(LeCunUniform):
    """Draws from :math:`U(-s, s)` with :math:`s = \\mathrm{scale}
    \\sqrt{6/\\mathrm{fan_{in}}}`."""

    _numerator = 6.0
