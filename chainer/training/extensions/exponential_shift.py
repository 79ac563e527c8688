"""ExponentialShift: multiplies an optimizer attribute by ``rate`` at each
call."""

from chainer.training.extensions import _shift


class ExponentialShift(_shift._Shift):
    """Sets ``optimizer.<attr> = init * rate ** t`` at the t-th call
    (typically with a trigger such as ``(1, 'epoch')``).

    Args:
        attr (str): The attribute (``'lr'``, ``'alpha'``...).
        rate (float): The factor per call.
        init (float): The initial value (the optimizer's current value by
            default).
        target (float): A bound: the value stops there (it is not passed).
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        if rate < 0:
            raise ValueError('ExponentialShift does not support negative '
                             'rate')  # Chainer's words
        self._rate = rate
        self._init = init
        self._target = target

    def _value(self):
        value = self._init * self._rate ** self._t
        return _shift._clamp(value, self._target, self._rate > 1)
