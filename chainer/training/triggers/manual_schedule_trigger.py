"""ManualScheduleTrigger: fires at given iterations or epochs."""

from chainer.training.triggers.interval_trigger import _check_unit


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
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def __call__(self, trainer):
        updater = trainer.updater
        if self.unit == 'epoch':
            now = updater.epoch_detail
            before = self._previous_epoch_detail
        else:
            now = updater.iteration
            before = self._previous_iteration
        fire = any(before < p <= now for p in self.points)
        if now >= max(self.points):
            self.finished = True
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def serialize(self, serializer):
        self._previous_iteration = serializer(
            'previous_iteration', self._previous_iteration)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)
        self.finished = serializer('finished', self.finished)
