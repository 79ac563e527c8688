"""Triggers that fire when a reported value reaches a new best."""

from chainer import reporter
from chainer.training import util


def _new_summary():
    return reporter.DictSummary()


class BestValueTrigger:
    """Fires when the mean of ``key`` over the last interval is the best so
    far, as judged by ``compare(best_value, new_value)``.

    Args:
        key (str): The observation key to watch (``'validation/main/loss'``).
        compare (callable): ``compare(best, new)`` returns True when ``new``
            is better than ``best``.
        trigger: How often to compare: ``(period, unit)`` or a trigger.
    """

    def __init__(self, key, compare, trigger=(1, 'epoch')):
        self._key = key
        self._best_value = None
        self._interval_trigger = util.get_trigger(trigger)
        self._summary = _new_summary()
        self._compare = compare

    def __call__(self, trainer):
        observation = trainer.observation
        key = self._key
        if key in observation:
            self._summary.add({key: observation[key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if key not in stats:
            raise KeyError(key)
        value = float(stats[key])
        self._summary = _new_summary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer):
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        best = serializer('best_value', self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """Fires when the mean of ``key`` over the interval is the largest so
    far (see :class:`BestValueTrigger`)."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, new: best < new, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fires when the mean of ``key`` over the interval is the smallest so
    far (see :class:`BestValueTrigger`)."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, new: best > new, trigger)


