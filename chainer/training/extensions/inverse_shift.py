"""InverseShift: decays an optimizer attribute as an inverse power."""

from chainer.training.extensions import _shift


class InverseShift(_shift._Shift):
    """Sets ``optimizer.<attr> = init * (1 + gamma * t) ** (-power)`` at
    the t-th call.

    Args:
        attr (str): The attribute.
        gamma (float): The time scale.
        power (float): The exponent.
        init (float): The initial value (the optimizer's by default).
        target (float): A bound the value does not pass.
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, gamma, power, init=None, target=None,
                 optimizer=None):
        super().__init__(attr, optimizer)
        if gamma < 0:
            raise ValueError('InverseShift does not support negative '
                             'gamma')  # Chainer's words
        self._gamma = gamma
        self._power = power
        self._init = init
        self._target = target

    def _value(self):
        value = self._init * (1 + self._gamma * self._t) ** (-self._power)
        return _shift._clamp(value, self._target, self._power < 0)
