"""IntervalTrigger: fires every ``period`` iterations or epochs."""

_UNITS = ('epoch', 'iteration')


def _check_unit(unit):
    if unit not in _UNITS:
        raise ValueError(
            "Trigger unit must be either 'epoch' or 'iteration'.")


class IntervalTrigger:
    """Fires each time the iteration (or the epoch) passes a multiple of
    ``period``.

    Args:
        period (int or float): The interval; a float period of epochs
            (``0.5``) fires in the middle of an epoch.
        unit (str): ``'iteration'`` or ``'epoch'``.

    >>> IntervalTrigger(2, 'epoch')
    IntervalTrigger(2, 'epoch')
    """

    def __init__(self, period, unit):
        _check_unit(unit)
        self.period = period
        self.unit = unit
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def __call__(self, trainer):
        """Whether the trigger fires at the trainer's current iteration."""
        updater = trainer.updater
        if self.unit == 'epoch':
            now = updater.epoch_detail
            before = self._previous_epoch_detail
        else:
            now = updater.iteration
            before = self._previous_iteration
        fire = before // self.period != now // self.period
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def serialize(self, serializer):
        self._previous_iteration = serializer(
            'previous_iteration', self._previous_iteration)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)

    def get_training_length(self):
        """``(period, unit)``: the length of training when this is the stop
        trigger."""
        return self.period, self.unit

    def __str__(self):
        return '{}({}, {!r})'.format(type(self).__name__, self.period,
                                     self.unit)

    __repr__ = __str__
