"""IntervalTrigger: fires every ``period`` iterations or epochs."""

import warnings

_UNITS = ('epoch', 'iteration')


def _check_unit(unit):
    if unit not in _UNITS:
        raise ValueError(
            "Trigger unit must be either 'epoch' or 'iteration'.")


def _serialize_or(serializer, key, value, missing, message):
    """``serializer(key, value)``; a snapshot written before ``key`` was
    saved gives ``missing`` instead, with a warning saying what is guessed."""
    try:
        return serializer(key, value)
    except KeyError:
        warnings.warn(message)
        return missing


def _serialize_previous(trigger, serializer):
    # -1 marks a position unknown after resuming an old snapshot: the next
    # call guesses it from the updater (see _previous).
    name = type(trigger).__name__
    trigger._previous_iteration = _serialize_or(
        serializer, 'previous_iteration', trigger._previous_iteration, -1,
        'The previous value of iteration is not saved. {} guesses it using '
        'current iteration. If this trigger is not called at every '
        'iteration, it may not work correctly.'.format(name))
    trigger._previous_epoch_detail = _serialize_or(
        serializer, 'previous_epoch_detail', trigger._previous_epoch_detail,
        -1., 'The previous value of epoch_detail is not saved. {} uses the '
        'value of trainer.updater.previous_epoch_detail. If this trigger is '
        'not called at every iteration, it may not work correctly.'.format(
            name))


def _previous(trigger, updater):
    """The (previous, current) position of ``updater`` in ``trigger``'s unit,
    and records the current one for the next call."""
    if trigger.unit == 'epoch':
        now = updater.epoch_detail
        before = trigger._previous_epoch_detail
        if before < 0:
            before = updater.previous_epoch_detail
    else:
        now = updater.iteration
        before = trigger._previous_iteration
        if before < 0:
            before = now - 1
    trigger._previous_iteration = updater.iteration
    if hasattr(updater, 'epoch_detail'):
        trigger._previous_epoch_detail = updater.epoch_detail
    return before, now


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
        before, now = _previous(self, trainer.updater)
        return before // self.period != now // self.period

    def serialize(self, serializer):
        _serialize_previous(self, serializer)

    def get_training_length(self):
        """``(period, unit)``: the length of training when this is the stop
        trigger."""
        return self.period, self.unit

    def __str__(self):
        return '{}({}, {!r})'.format(type(self).__name__, self.period,
                                     self.unit)
