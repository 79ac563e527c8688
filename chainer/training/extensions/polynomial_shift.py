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
        decay = max(1 - self._t / self._max_count, 0)
        value = self._init * decay ** self._rate
        if self._target is None:
            return value
        # Chainer compares target / value (the other shifts take value /
        # target), so a value decayed to 0 raises ZeroDivisionError there,
        # as it does here
        ratio = self._target / value
        if self._rate > 0 and ratio > 1 or self._rate <= 0 and ratio < 1:
            return self._target
        return value
