"""The common part of the extensions that schedule an optimizer
attribute (``lr``, ``alpha``, ``momentum``...)."""

from chainer.training import extension


class _Shift(extension.Extension):
    """Sets ``attr`` of the optimizer to ``_value()`` at each call.

    ``_t`` counts the calls; ``_last_value`` is the value set last (saved in
    snapshots, so that a resumed run starts from it).
    """

    _init = None

    def __init__(self, attr, optimizer=None):
        self._attr = attr
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _get_optimizer(self, trainer):
        if self._optimizer is not None:
            return self._optimizer
        return trainer.updater.get_optimizer('main')

    def _update_value(self, optimizer, value):
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        if self._last_value is not None:  # resumed from a snapshot
            value = self._last_value
        else:
            value = self._start()
        self._update_value(optimizer, value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self._value())

    def _start(self):
        # the first value is init itself, even beyond the target bound
        return self._init

    def _value(self):
        raise NotImplementedError

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
        value = serializer('_last_value', self._last_value)
        self._last_value = value.item() if hasattr(value, 'item') else value


def _clamp(value, target, growing):
    """``value`` bounded by ``target`` in magnitude: a growing schedule
    stops at it, a shrinking one does not fall below it. Comparing the ratio
    keeps this right for negative values too."""
    if target is None:
        return value
    ratio = value / target
    if growing and ratio > 1 or not growing and ratio < 1:
        return target
    return value
