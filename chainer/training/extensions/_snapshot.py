"""Snapshots of the trainer (or of any object) during training."""

import os
import re

import numpy

from chainer.serializers import npz
from chainer.training import extension
from chainer.training.extensions import snapshot_writers

_FIELD = re.compile(r'\{[^{}]*\}')


class _SnapshotDict(dict):
    """The content of a snapshot: a flat dict ``key -> array``, which can
    also be saved as an object (``serialize`` replays its entries)."""

    def serialize(self, serializer):
        for key, value in self.items():
            serializer(key, value)


def _serialize(target, copy):
    s = npz.DictionarySerializer()
    s.save(target)
    if copy:  # an asynchronous writer must not see later updates
        return _SnapshotDict((k, numpy.array(v, copy=True))
                             for k, v in s.target.items())
    return _SnapshotDict(s.target)


def _natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', name)]


def _find_snapshot_files(template, path):
    """``(mtime, name)`` of the files in ``path`` that the filename
    template can produce, oldest first."""
    if not os.path.isdir(path):
        return []
    pattern = re.compile('^' + '.*'.join(
        re.escape(part) for part in _FIELD.split(template)) + '$')
    found = []
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if pattern.match(name) and os.path.isfile(full):
            found.append((os.stat(full).st_mtime_ns, name))
    found.sort(key=lambda t: (t[0], _natural_key(t[1])))
    return found


def _find_stale_snapshots(template, path, n_retains):
    """The names of the snapshot files in ``path`` past the newest
    ``n_retains`` ones, oldest first."""
    found = _find_snapshot_files(template, path)
    for _, name in found[:max(0, len(found) - n_retains)]:
        yield name


def _find_latest_snapshot(template, path):
    found = _find_snapshot_files(template, path)
    return found[-1][1] if found else None


class _Snapshot(extension.Extension):
    """Takes a snapshot of the trainer (or of ``target``); see
    :func:`snapshot`."""

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}',
                 snapshot_on_error=False, n_retains=-1, autoload=False):
        if condition is None:
            condition = _always
        if writer is None:
            writer = snapshot_writers.SimpleWriter()
        if callable(filename) and (n_retains > 0 or autoload):
            raise ValueError(
                'snapshot: n_retains and autoload need a filename template '
                '(a str), not a callable')
        self._target = target
        self.filename = filename
        self.condition = condition
        self.writer = writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload
        self._outdir = None
        if n_retains > 0 and hasattr(writer, '_add_cleanup_hook'):
            writer._add_cleanup_hook(self._cleanup)
            self._cleanup_by_writer = True
        else:
            self._cleanup_by_writer = False

    def initialize(self, trainer):
        """With ``autoload``, loads the latest snapshot found in
        ``trainer.out`` (if any)."""
        self._outdir = trainer.out
        if not self.autoload:
            return
        name = _find_latest_snapshot(self.filename, trainer.out)
        if name is not None:
            target = trainer if self._target is None else self._target
            npz.load_npz(os.path.join(trainer.out, name), target)

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        content = _serialize(
            target,
            copy=not isinstance(self.writer, snapshot_writers.SimpleWriter))
        filename = self.filename
        if callable(filename):
            filename = filename(trainer)
        else:
            filename = filename.format(trainer)
        self._outdir = trainer.out
        self.writer(filename, trainer.out, content)
        if self.n_retains > 0 and not self._cleanup_by_writer:
            self._cleanup()

    def _cleanup(self):
        for name in _find_stale_snapshots(self.filename, self._outdir,
                                          self.n_retains):
            try:
                os.remove(os.path.join(self._outdir, name))
            except FileNotFoundError:
                pass

    def finalize(self):
        finalize = getattr(self.writer, 'finalize', None)
        if finalize is not None:
            finalize()


def _always():
    return True


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}',
             **kwargs):
    """Returns a trainer extension that takes snapshots of the trainer.

    The snapshot holds everything needed to resume: the updater (its
    iterators, optimizers, models and iteration count), the stop trigger,
    every extension and its trigger, and the elapsed time. Load it with
    ``chainer.serializers.load_npz(path, trainer)`` before
    ``trainer.run()``, or use ``autoload=True``. The file is written to a
    temporary file in ``trainer.out`` and renamed into place, so a crash
    never leaves a half-written snapshot. The default trigger is
    ``(1, 'epoch')``; the extension runs after all others (priority -100).

    Args:
        savefun: ``savefun(path, content)``; ``save_npz`` by default.
            ``content`` is a dict of arrays with a ``serialize`` method.
        filename (str or callable): The file name, a template formatted
            with the trainer (``'snapshot_iter_{.updater.iteration}'``), or
            a callable ``f(trainer)``.
        target: The object to save instead of the trainer.
        condition (callable): ``condition()`` says whether to save now.
        writer: A writer from
            :mod:`chainer.training.extensions.snapshot_writers` (not
            together with ``savefun``).
        snapshot_on_error (bool): Also save when training raises.
        n_retains (int): Keep only the latest this many snapshots (of the
            files the template matches); -1 keeps all.
        autoload (bool): At the start of training, load the latest
            snapshot found in ``trainer.out``.

    Returns:
        The extension.
    """
    target = kwargs.pop('target', None)
    condition = kwargs.pop('condition', None)
    writer = kwargs.pop('writer', None)
    snapshot_on_error = kwargs.pop('snapshot_on_error', False)
    n_retains = kwargs.pop('n_retains', -1)
    autoload = kwargs.pop('autoload', False)
    if kwargs:
        raise TypeError('snapshot() got unexpected keyword argument(s) '
                        '{}'.format(', '.join(repr(k) for k in kwargs)))
    if savefun is not None and writer is not None:
        raise TypeError(
            'savefun and writer arguments cannot be specified together.')
    if writer is None:
        writer = snapshot_writers.SimpleWriter(
            savefun=npz.save_npz if savefun is None else savefun)
    return _Snapshot(target=target, condition=condition, writer=writer,
                     filename=filename, snapshot_on_error=snapshot_on_error,
                     n_retains=n_retains, autoload=autoload)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """Returns a trainer extension that takes snapshots of ``target`` (a
    model, an optimizer...).

    Args:
        target: The object to save (it must have ``serialize``).
        filename (str or callable): The file name template, formatted with
            the trainer (``'model_iter_{.updater.iteration}'``).
        savefun: ``savefun(path, content)``; ``save_npz`` by default.
        kwargs: As for :func:`snapshot` (``num_retain`` is accepted as an
            old name of ``n_retains``).
    """
    if 'num_retain' in kwargs:
        kwargs['n_retains'] = kwargs.pop('num_retain')
    return snapshot(target=target, filename=filename, savefun=savefun,
                    **kwargs)
