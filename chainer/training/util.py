"""Helpers of the training package: turning trigger specs into triggers."""

import time

from chainer.training.triggers import interval_trigger


def get_trigger(trigger):
    """Returns a trigger object from a spec.

    Args:
        trigger: A callable trigger (returned as is), None (a trigger that
            never fires), or a tuple ``(period, unit)`` with ``unit`` one of
            ``'epoch'`` and ``'iteration'`` (an :class:`IntervalTrigger`).

    >>> get_trigger((2, 'epoch'))
    IntervalTrigger(2, 'epoch')
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    if not isinstance(trigger, (tuple, list)) or len(trigger) != 2:
        raise TypeError(
            'trigger must be a callable, None or a tuple (period, unit), '
            'got {!r}'.format(trigger))
    return interval_trigger.IntervalTrigger(*trigger)


def _never_fire_trigger(trainer):
    return False


def _get_time():
    return time.perf_counter()
