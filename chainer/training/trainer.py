"""Trainer: the training loop, driven by an updater and extensions."""

import collections
import os
import sys
import traceback

from chainer import reporter as reporter_module
from chainer import serializer as serializer_module
from chainer.training import extension as extension_module
from chainer.training import trigger as trigger_module
from chainer.training import util
from chainer.utils import argument


class _ExtensionEntry:

    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


class Trainer:
    """The standard training loop.

    Each iteration calls ``updater.update()`` inside a reporter scope whose
    observation is ``trainer.observation``, then every extension whose
    trigger fires, by priority (highest first, in registration order within
    a priority). The loop ends when ``stop_trigger`` fires.

    Args:
        updater: The updater (one training step per ``update()``).
        stop_trigger: When to stop: ``(period, unit)`` such as
            ``(20, 'epoch')``, a trigger object, or None (never).
        out (str): The output directory (snapshots, logs, plots).
        extensions (list): Extensions to register with :meth:`extend`.

    Attributes:
        updater: The updater.
        stop_trigger: The stop trigger.
        observation (dict): What was reported during the current iteration.
        out (str): The output directory.
        reporter (chainer.Reporter): The reporter, with every optimizer's
            target link (and its sublinks) registered as an observer.
    """

    def __init__(self, updater, stop_trigger=None, out='result',
                 extensions=None):
        self.updater = updater
        self.stop_trigger = trigger_module.get_trigger(stop_trigger)
        self.observation = {}
        self.out = out
        reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            reporter.add_observer(name, optimizer.target)
            reporter.add_observers(
                name, optimizer.target.namedlinks(skipself=True))
        self.reporter = reporter
        self._done = False
        self._extensions = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def is_before_training(self):
        """True until the first update."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self):
        """Seconds of training, including those before a resume."""
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('training has not been started yet')
        return util._get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None,
               *, call_before_training=False, **kwargs):
        """Registers an extension.

        Args:
            extension: The extension (an :class:`Extension` or a callable
                ``f(trainer)``).
            name (str): Its name; by default ``extension.name``, then
                ``extension.default_name``, then its ``__name__``. A name in
                use gets a suffix ``_1``, ``_2``, ...
            trigger: When to call it: ``(period, unit)`` or a trigger; by
                default ``extension.trigger``, else ``(1, 'iteration')``.
            priority (int): By default ``extension.priority``, else
                ``PRIORITY_READER``.
            call_before_training (bool): Also call it once before the first
                iteration.
        """
        if 'invoke_before_training' in kwargs:
            raise ValueError(
                'invoke_before_training has been removed since Chainer '
                'v2.0.0. Use initializer= instead.')
        if kwargs:  # Chainer's text
            raise argument.unexpected_error('assert_kwargs_empty', kwargs)
        if name is None:
            name = getattr(extension, 'name', None)
            if name is None:
                name = getattr(extension, 'default_name', None)
                if name is None:
                    name = getattr(extension, '__name__', None)
                    if name is None:
                        raise TypeError('name is not given for the extension')
        if name == 'training':
            raise ValueError(
                'the name "training" is prohibited as an extension name')
        if trigger is None:
            trigger = getattr(extension, 'trigger', (1, 'iteration'))
        trigger = trigger_module.get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, 'priority',
                               extension_module.PRIORITY_READER)
        modified_name = name
        ordinal = 0
        while modified_name in self._extensions:
            ordinal += 1
            modified_name = '{}_{}'.format(name, ordinal)
        try:
            extension.name = modified_name
        except AttributeError:  # e.g. a bound method: keep the entry name
            pass
        self._extensions[modified_name] = _ExtensionEntry(
            extension, priority, trigger, call_before_training)

    def get_extension(self, name):
        """Returns the extension registered as ``name``."""
        if name in self._extensions:
            return self._extensions[name].extension
        raise ValueError('extension {} not found'.format(name))

    def run(self, show_loop_exception_msg=True):
        """Runs the training loop until the stop trigger fires.

        On an exception, every extension's ``on_error`` is called, then (as
        always at the end) every ``finalize`` and ``updater.finalize()``,
        and the exception propagates.

        Args:
            show_loop_exception_msg (bool): Print the exception and its
                traceback to stderr before finalizing.
        """
        if self._done:
            raise RuntimeError('cannot run training loop multiple times')
        os.makedirs(self.out, exist_ok=True)
        order = sorted(self._extensions,
                       key=lambda n: self._extensions[n].priority,
                       reverse=True)
        extensions = [(n, self._extensions[n]) for n in order]
        self._start_at = util._get_time()

        # Extensions that restore state (a snapshot with autoload=True)
        # initialize first, so that the others see the restored state.
        for _, entry in sorted(
                extensions,
                key=lambda e: not getattr(e[1].extension, 'autoload', False)):
            initialize = getattr(entry.extension, 'initialize', None)
            finished = getattr(entry.trigger, 'finished', False)
            if initialize and not finished:
                initialize(self)

        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        try:
            if self.is_before_training:
                self.observation = {}
                for _, entry in extensions:
                    if entry.call_before_training:
                        with reporter.scope(self.observation):
                            entry.extension(self)
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in extensions:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            tb = sys.exc_info()[2]
            if show_loop_exception_msg:
                f = sys.stderr
                f.write('Exception in main training loop: {}\n'.format(e))
                f.write('Traceback (most recent call last):\n')
                traceback.print_tb(tb, file=f)
                f.write('Will finalize trainer extensions and updater '
                        'before reraising the exception.\n')
                f.flush()
            for _, entry in extensions:
                on_error = getattr(entry.extension, 'on_error', None)
                if on_error:
                    try:
                        on_error(self, e, tb)
                    except Exception as ee:
                        sys.stderr.write(
                            'Exception in error handler: {}\nTraceback (most '
                            'recent call last):\n'.format(ee))
                        traceback.print_tb(sys.exc_info()[2], file=sys.stderr)
            raise
        finally:
            for _, entry in extensions:
                finalize = getattr(entry.extension, 'finalize', None)
                if finalize:
                    finalize()
            self.updater.finalize()
        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def serialize(self, serializer):
        """Saves or loads the updater, the stop trigger, every extension and
        its trigger, and the elapsed time."""
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        s = serializer['extensions']
        t = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(s[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(t[name])
        if isinstance(serializer, serializer_module.Serializer):
            elapsed = self.elapsed_time if self._start_at is not None \
                else self._snapshot_elapsed_time
            serializer('_snapshot_elapsed_time', elapsed)
        else:
            self._snapshot_elapsed_time = float(serializer(
                '_snapshot_elapsed_time', 0.0))
        # NumPy's global random state is not part of it, as in Chainer: a
        # loaded trainer draws on from where the process stands
