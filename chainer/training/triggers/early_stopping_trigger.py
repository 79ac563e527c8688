"""EarlyStoppingTrigger: a stop trigger that fires when the monitored value
stops improving."""

import operator
import warnings

from chainer import reporter
from chainer.training import util


class EarlyStoppingTrigger:
    """Stops training when ``monitor`` has not improved for ``patience``
    checks in a row, or when ``max_trigger`` fires.

    Use it as the trainer's stop trigger:
    ``Trainer(updater, stop_trigger=EarlyStoppingTrigger(...))``.

    Args:
        check_trigger: How often to check: ``(period, unit)`` or a trigger.
        monitor (str): The observation key (its mean over the interval is
            compared).
        patience (int): How many checks without improvement to tolerate
            (default 3). ``patients`` is accepted as an old alias.
        mode (str): ``'max'``, ``'min'`` or ``'auto'`` (``'max'`` when
            ``'accuracy'`` is in the key, else ``'min'``).
        verbose (bool): Print the comparison operator and when it stops.
        max_trigger: The longest training: ``(period, unit)``.
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False,
                 max_trigger=(100, 'epoch'), **kwargs):
        patients = kwargs.pop('patients', None)
        if kwargs:
            raise TypeError(
                '__init__() got unexpected keyword argument(s) {}'.format(
                    ', '.join(repr(k) for k in kwargs)))
        if patience is not None and patients is not None:
            raise TypeError(
                "Both 'patience' and 'patients' arguments are specified. "
                "'patients' is an alias of the former. Specify only "
                "'patience'.")
        if patience is None:
            patience = 3 if patients is None else patients
        if mode not in ('auto', 'max', 'min'):
            raise ValueError(
                "EarlyStoppingTrigger: mode must be 'auto', 'max' or 'min', "
                "got {!r}".format(mode))
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = util.get_trigger(max_trigger)
        self._interval_trigger = util.get_trigger(check_trigger)
        self._summary = reporter.DictSummary()
        if mode == 'auto':
            mode = 'max' if 'accuracy' in monitor else 'min'
        if mode == 'max':
            self._compare = operator.gt
            self.best = float('-inf')
            if verbose:
                print('early stopping: operator is greater')
        else:
            self._compare = operator.lt
            self.best = float('inf')
            if verbose:
                print('early stopping: operator is less')

    def __call__(self, trainer):
        """Whether training should stop now."""
        if self._max_trigger(trainer):
            return True
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter.DictSummary()
        if self.monitor not in stats:
            if not self.already_warning:
                warnings.warn('{} is not in observation'.format(self.monitor))
                self.already_warning = True
            return False
        value = float(stats[self.monitor])
        if self._compare(value, self.best):
            self.best = value
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print('Epoch {}: early stopping'.format(
                    trainer.updater.epoch))
            return True
        return False

    def get_training_length(self):
        """The length given by ``max_trigger``."""
        return self._max_trigger.get_training_length()
