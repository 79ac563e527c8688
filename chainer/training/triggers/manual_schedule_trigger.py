"""ManualScheduleTrigger: fires at given iterations or epochs."""

from chainer.training.triggers.interval_trigger import (
    _check_unit, _previous, _serialize_or, _serialize_previous)


class ManualScheduleTrigger:
    """Fires when the iteration (or epoch) reaches one of ``points``.

    Args:
        points (int, float or list of them): Where to fire.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): True once the last point has been reached (the
            trainer then skips the extension's ``initialize``).

    >>> t = ManualScheduleTrigger([10, 20], 'iteration')
    >>> t.finished
    False
    """

    def __init__(self, points, unit):
        _check_unit(unit)
        if not isinstance(points, (list, tuple)):
            points = [points]
        if not points:
            raise ValueError('ManualScheduleTrigger: points is empty')
        self.points = points
        self.unit = unit
        self.finished = False
        self._finished_unknown = False
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def __call__(self, trainer):
        before, now = _previous(self, trainer.updater)
        fire = any(before < p <= now for p in self.points)
        # after resuming a snapshot without the flag, the first call decides
        # it from where training is; otherwise it is set when the last point
        # fires
        if fire or self._finished_unknown:
            self._finished_unknown = False
            if now >= max(self.points):
                self.finished = True
        return fire

    def serialize(self, serializer):
        _serialize_previous(self, serializer)
        # an old snapshot has no flag: False keeps the extension initialized
        # until the next call settles it
        finished = _serialize_or(
            serializer, 'finished', self.finished, None,
            'The flag of finished is not saved. ManualScheduleTrigger set '
            'the flag to `False` to force initialization and reset in next '
            '`__call__`.')
        self._finished_unknown = finished is None
        self.finished = bool(finished)
