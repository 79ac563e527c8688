"""MicroAverage: the ratio of two sums of reported values."""

from chainer.training import extension
from chainer.training import util


class MicroAverage(extension.Extension):
    """Reports ``sum(numerator) / sum(denominator)`` over each interval.

    For instance the accuracy over a whole epoch, from per-batch counts of
    correct answers and of examples (a "micro" average, as opposed to the
    mean of per-batch ratios).

    Args:
        numerator_key (str): The observation key summed as numerator.
        denominator_key (str): The observation key summed as denominator.
        result_key (str): The key under which the ratio is reported.
        trigger: When to report: ``(period, unit)`` or a trigger.
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key,
                 trigger=(1, 'epoch')):
        self._trigger = util.get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        observation = trainer.observation
        if not (self._numerator_key in observation and
                self._denominator_key in observation):
            return
        self._numerator += observation[self._numerator_key]
        self._denominator += observation[self._denominator_key]
        if self._trigger(trainer):
            observation[self._result_key] = \
                1.0 * self._numerator / self._denominator
            self._numerator = 0
            self._denominator = 0

    def serialize(self, serializer):
        self._numerator = serializer('_numerator', self._numerator)
        self._denominator = serializer('_denominator', self._denominator)
