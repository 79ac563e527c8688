"""LogReport: averages the observations over an interval and keeps (and
writes) the log."""

import json
import os
import warnings

from chainer import reporter
from chainer import serializer as serializer_module
from chainer.training import extension
from chainer.training import trigger as trigger_module
from chainer.utils import argument
from chainer.utils._atomic import atomic_path


def _write_atomically(path, write):
    """Writes through a temporary file in the same folder, renamed into
    place, so readers never see a half-written file."""
    with atomic_path(path) as tmp:
        with open(tmp, 'w') as f:
            write(f)


class LogReport(extension.Extension):
    """Accumulates the observations and, each time ``trigger`` fires,
    appends their means (plus ``epoch``, ``iteration`` and
    ``elapsed_time``) to the log, and writes the whole log as JSON to
    ``<trainer.out>/<filename>``.

    Args:
        keys (list of str): The observation keys to keep (all by default).
        trigger: When to add an entry: ``(period, unit)`` or a trigger.
        postprocess (callable): Called with each entry (a dict) before it is
            added; it may change it.
        filename (str): The log file name, may use the entry's keys as
            format fields (``'log_{iteration}'``); ``'log'`` by default;
            None writes no file. ``log_name`` is its old name.

    Attributes:
        log (list of dict): The entries so far.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None,
                 filename=None, **kwargs):
        log_name = kwargs.pop('log_name', 'log')
        if kwargs:
            # Chainer's text (its parse_kwargs names __init__)
            raise argument.unexpected_error('__init__', kwargs)
        self._keys = keys
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._log = []
        self._log_name = log_name if filename is None else filename
        self._summary = reporter.DictSummary()

    @property
    def log(self):
        """The list of entries (dicts) so far."""
        return self._log

    def __call__(self, trainer):
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in self._keys
                               if k in observation})
        # a call before training (call_before_training=True) writes its
        # own epoch-0 entry, and leaves the trigger's position alone
        if not (getattr(trainer, 'is_before_training', False)
                or self._trigger(trainer)):
            return
        entry = {name: float(value)
                 for name, value in self._summary.compute_mean().items()}
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            name = self._log_name.format(**entry)
            os.makedirs(trainer.out, exist_ok=True)
            _write_atomically(os.path.join(trainer.out, name),
                              lambda f: json.dump(self._log, f, indent=4))
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        try:
            self._summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn('The statistics are not saved.')
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_log', json.dumps(self._log))
        else:
            self._log = json.loads(serializer('_log', ''))
