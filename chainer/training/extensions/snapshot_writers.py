"""Snapshot writers: how (and in which thread or process) a snapshot is
saved.

A writer is called as ``writer(filename, outdir, target)``; ``target`` is
the snapshot's content (a dict of arrays from the trainer's serialization).
Every writer saves to a temporary file inside a temporary folder in
``outdir`` and renames it into place (atomic on one file system), so a
crash never leaves a half-written snapshot under the final name; the
temporary folders and files that killed saves left in ``outdir`` are removed
at the next save there (see ``chainer.serializers._tempfiles`` for the
rule).
"""

import multiprocessing
import os
import queue
import shutil
import tempfile
import threading

from chainer.serializers import _tempfiles
from chainer.serializers import npz


class Writer:
    """The base class of snapshot writers.

    A subclass implements ``__call__(filename, outdir, target)``, usually
    through :meth:`save`.
    """

    def __init__(self):
        self._post_save_hooks = []

    def __call__(self, filename, outdir, target):
        raise NotImplementedError

    def _add_cleanup_hook(self, hook):
        if not hasattr(self, '_post_save_hooks'):
            self._post_save_hooks = []
        self._post_save_hooks.append(hook)

    def _post_save(self):
        for hook in getattr(self, '_post_save_hooks', ()):
            hook()

    def finalize(self):
        """Waits for pending writes (nothing by default)."""
        pass

    def save(self, filename, outdir, target, savefun, **kwds):
        """Saves ``target`` with ``savefun(path, target, **kwds)`` to
        ``outdir/filename``, atomically."""
        os.makedirs(outdir, exist_ok=True)
        _tempfiles.remove_stale(outdir)
        tmpdir = tempfile.mkdtemp(prefix='tmp' + filename, dir=outdir)
        with _tempfiles.holding(tmpdir):
            try:
                tmppath = os.path.join(tmpdir, filename)
                savefun(tmppath, target, **kwds)
                os.replace(tmppath, os.path.join(outdir, filename))
            finally:
                shutil.rmtree(tmpdir, ignore_errors=True)
        self._post_save()


class SimpleWriter(Writer):
    """Saves in the training thread, right away.

    Args:
        savefun: ``savefun(path, target, **kwds)``; ``save_npz`` by default.
        kwds: Passed on to ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Saves in a worker (made by :meth:`create_worker`), one snapshot at a
    time: a new snapshot first waits for the previous one."""

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds
        self._started = False
        self._finalized = False
        self._worker = None

    def __call__(self, filename, outdir, target):
        if self._started:
            self._worker.join()
        self._worker = self.create_worker(filename, outdir, target,
                                          **self._kwds)
        self._worker.start()
        self._started = True

    def create_worker(self, filename, outdir, target, **kwds):
        raise NotImplementedError

    def finalize(self):
        if self._started and not self._finalized:
            self._worker.join()
        self._started = False
        self._finalized = True


class ThreadWriter(StandardWriter):
    """Saves each snapshot in a new thread."""

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(
            target=self.save,
            args=(filename, outdir, target, self._savefun), kwargs=kwds)


class ProcessWriter(StandardWriter):
    """Saves each snapshot in a new process (the target must be
    picklable)."""

    def create_worker(self, filename, outdir, target, **kwds):
        return multiprocessing.Process(
            target=self.save,
            args=(filename, outdir, target, self._savefun), kwargs=kwds)


class QueueWriter(Writer):
    """Queues the snapshots to one consumer (a thread or a process) that
    saves them in order.

    Args:
        savefun: ``savefun(path, target)``; ``save_npz`` by default.
        task (callable): What the consumer calls for each queued snapshot;
            by default :meth:`create_task` (a :class:`SimpleWriter`).
    """

    def __init__(self, savefun=npz.save_npz, task=None):
        super().__init__()
        self._task = self.create_task(savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._started = True
        self._finalized = False

    def __call__(self, filename, outdir, target):
        self._queue.put([self._task, filename, outdir, target])

    def create_task(self, savefun):
        return SimpleWriter(savefun=savefun)

    def create_queue(self):
        raise NotImplementedError

    def create_consumer(self, q):
        raise NotImplementedError

    def consume(self, q):
        while True:
            task = q.get()
            if task is None:
                q.task_done()
                return
            task[0](task[1], task[2], task[3])
            self._post_save()
            q.task_done()

    def finalize(self):
        if self._started and not self._finalized:
            self._queue.put(None)
            self._queue.join()
            self._consumer.join()
        self._started = False
        self._finalized = True


class ThreadQueueWriter(QueueWriter):
    """A :class:`QueueWriter` whose consumer is a thread."""

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self.consume, args=(q,))


class ProcessQueueWriter(QueueWriter):
    """A :class:`QueueWriter` whose consumer is a process."""

    def create_queue(self):
        return multiprocessing.JoinableQueue()

    def create_consumer(self, q):
        return multiprocessing.Process(target=self.consume, args=(q,))
