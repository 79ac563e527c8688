"""Gaussian initializers: Normal and the fan-scaled LeCun, Glorot, He."""

import numpy

from chainer import initializer
from chainer.initializer import Initializer
from chainer.initializers._common import check_dtype, fill_random, pop_rng


class Normal(Initializer):
    """Draws from :math:`N(0, \\mathrm{scale}^2)`.

    Args:
        scale (float): The standard deviation.
        dtype: The dtype of the arrays it fills.
        rng: (keyword only) A ``numpy.random.RandomState`` (or CuPy's) to
            draw from; by default the global ``numpy.random`` (``cupy.random``
            for CuPy arrays), so ``numpy.random.seed`` reproduces it.

    >>> import numpy as np
    >>> a = np.empty((2, 3), np.float32)
    >>> Normal(0.1)(a)
    >>> a.shape, a.dtype
    ((2, 3), dtype('float32'))
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng = pop_rng(type(self).__name__, kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        check_dtype(self, array)
        fill_random(array, self.rng, 'normal', 0.0, self.scale)


def _fan_scaled(init, array, numerator, fan):
    # std = scale * sqrt(numerator / fan); nothing to draw for empty arrays
    check_dtype(init, array)
    fan_in, fan_out = initializer.get_fans(array.shape)
    if array.size == 0:
        return
    fan = {'fan_in': fan_in, 'fan_out': fan_out,
           'fan_avg': (fan_in + fan_out) / 2.0}[fan]
    return init.scale * numpy.sqrt(numerator / fan)


class LeCunNormal(Initializer):
    """Draws from :math:`N(0, s^2)` with :math:`s = \\mathrm{scale}
    \\sqrt{1/\\mathrm{fan_{in}}}` (LeCun 1998).

    Fans follow :func:`chainer.initializer.get_fans`: for a weight of shape
    ``(out, in, k1, k2, ...)``, fan-in is ``in * k1 * k2 ...`` and fan-out
    ``out * k1 * k2 ...``.

    Args:
        scale (float): A multiplier of the standard deviation.
        dtype: The dtype of the arrays it fills.
        rng: (keyword only) The random state to draw from.
    """

    _numerator = 1.0
    _fan = 'fan_in'

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = pop_rng(type(self).__name__, kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        std = _fan_scaled(self, array, self._numerator, self._fan)
        if std is not None:
            fill_random(array, self.rng, 'normal', 0.0, std)


class GlorotNormal(LeCunNormal):
    """Draws from :math:`N(0, s^2)` with :math:`s = \\mathrm{scale}
    \\sqrt{2/(\\mathrm{fan_{in}} + \\mathrm{fan_{out}})}` (Glorot and Bengio
    2010)."""

    _fan = 'fan_avg'


class HeNormal(LeCunNormal):
    """Draws from :math:`N(0, s^2)` with :math:`s = \\mathrm{scale}
    \\sqrt{2/\\mathrm{fan}}` (He et al. 2015).

    Args:
        scale (float): A multiplier of the standard deviation.
        dtype: The dtype of the arrays it fills.
        fan_option (str): ``'fan_in'`` or ``'fan_out'``.
        rng: (keyword only) The random state to draw from.
    """

    _numerator = 2.0

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in', **kwargs):
        # set first: vars() lists scale, fan_option, rng, dtype, as Chainer's
        self.scale = scale
        self.fan_option = fan_option
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array):
        if self.fan_option not in ('fan_in', 'fan_out'):
            raise ValueError(
                "fan_option should be either 'fan_in' or 'fan_out'.")
        std = _fan_scaled(self, array, 2.0, self.fan_option)
        if std is not None:
            fill_random(array, self.rng, 'normal', 0.0, std)
