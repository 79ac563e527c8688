"""Checkpoints written by every rank, resumed from the latest iteration that
every rank has."""

import os
import re
import time

from chainer import serializers
from chainer.training import extension


class _CheckpointStats:
    """Times of the checkpoints written."""

    def __init__(self):
        self.timings = []
        self.begin = None

    def start(self):
        self.begin = time.time()

    def end(self):
        self.timings.append(time.time() - self.begin)
        self.begin = None

    def report(self):
        n = len(self.timings)
        if not n:
            return 'No checkpoint saved yet'
        return '{} checkpoints; {:.3f}s on average'.format(n, sum(self.timings) / n)


class _MultiNodeCheckpointer(extension.Extension):

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        self.name, self.comm = name, comm
        self.cp_interval, self.gc_interval = cp_interval, gc_interval
        self.path = path
        self.stats = _CheckpointStats()
        self.files = []
        self._saves = 0
        self._folder = None
        self._failed = False

    def _filenames(self, iterations):
        return ['cp-{}-{}-{}'.format(self.name, self.comm.rank, i) for i in iterations]

    def _parse_filenames(self, filenames):
        pattern = re.compile(r'^cp-{}-(\d+)-(\d+)$'.format(re.escape(self.name)))
        for f in filenames:
            m = pattern.match(f)
            if m:
                yield self.name, int(m.group(1)), int(m.group(2))

    def _dir(self, target):
        return self.path if self.path is not None else target.out

    def __call__(self, trainer):
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration):
        """Writes this rank's checkpoint of ``target`` (the trainer) at
        ``iteration``; ``save_npz`` writes it atomically (a temporary file
        renamed into place), so a crash never leaves half a checkpoint."""
        self.stats.start()
        folder = self._folder = self._dir(target)
        os.makedirs(folder, exist_ok=True)
        filename, = self._filenames([iteration])
        serializers.save_npz(os.path.join(folder, filename), target)
        self.files.append(filename)
        self._saves += 1
        if self._saves % self.gc_interval == 0:
            self._gc(folder)
        self.stats.end()

    def _gc(self, folder):
        # Keep the newest cp_interval checkpoints of this rank.
        old, self.files = self.files[:-self.cp_interval], self.files[-self.cp_interval:]
        for f in old:
            try:
                os.remove(os.path.join(folder, f))
            except OSError:
                pass

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Loads the latest checkpoint that every rank has into ``trainer``
        (or whatever was saved: an updater...), and nothing when there is
        none. Every rank must call it. Given the multi-node ``optimizer``, a
        load also tells it that the ranks are in step, so that its first
        update steps instead of broadcasting (a resumed run then goes on
        exactly as the interrupted one would have)."""
        folder = path if path is not None else self._dir(trainer)
        self._folder = folder
        mine = set()
        if os.path.isdir(folder):
            mine = {i for _, rank, i in self._parse_filenames(os.listdir(folder))
                    if rank == self.comm.rank}
        every = self.comm.gather_obj(mine)
        common = set.intersection(*every) if self.comm.rank == 0 else None
        common = self.comm.bcast_obj(common)
        self.files = self._filenames(sorted(mine))
        if not common:
            return
        iteration = max(common)
        filename, = self._filenames([iteration])
        serializers.load_npz(os.path.join(folder, filename), trainer)
        if optimizer is not None and hasattr(optimizer, 'is_changed'):
            optimizer.is_changed(optimizer.target)  # records the parameters as set up

    def get_stats(self):
        """A line on the checkpoints written and their mean time."""
        return self.stats.report()

    def on_error(self, trainer, exc, tb):
        self._failed = True

    def finalize(self):
        """Removes this rank's checkpoints, unless the training failed (then
        they are what a rerun resumes from)."""
        if self._failed or self._folder is None:
            return
        for f in self.files:
            try:
                os.remove(os.path.join(self._folder, f))
            except OSError:
                pass
        self.files = []


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5, path=None):
    """A trainer extension that writes a checkpoint of the trainer on every
    rank (file ``cp-{name}-{rank}-{iteration}`` in ``path``, the trainer's
    ``out`` by default) and keeps the newest ``cp_interval`` of them,
    deleting older ones every ``gc_interval`` saves. Call
    ``checkpointer.maybe_load(trainer, optimizer)`` before ``trainer.run()``
    to resume from the latest iteration saved by every rank. When the
    training ends without an error, each rank removes its checkpoints.
    Deprecated in Chainer in favour of :func:`multi_node_snapshot`."""
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
