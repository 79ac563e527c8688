"""PolynomialShift: decays an optimizer attribute polynomially to 0."""

from chainer.training.extensions import _shift


class PolynomialShift(_shift._Shift):
    """Sets ``optimizer.<attr> = init * (1 - t / max_count) ** rate`` at
    the t-th call (0 from ``max_count`` on).

    Args:
        attr (str): The attribute.
        rate (float): The exponent.
        max_count (int): The number of calls to reach 0 (for instance the
            number of iterations of training).
        init (float): The initial value (the optimizer's by default).
        target (float): A bound the value does not pass.
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, rate, max_count, init=None, target=None,
                 optimizer=None):
        super().__init__(attr, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._init = init
        self._target = target

    def _value(self):
        if self._t >= self._max_count:
            value = 0. * self._init
        else:
            value = self._init * (1 - self._t / self._max_count) ** self._rate
        return _shift._clamp(value, self._target, self._rate > 0)
