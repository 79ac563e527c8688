import io

from chainer.serializers import npz
from chainer.training import extension
from chainer.training.extensions._snapshot import _find_latest_snapshot


def _parse_replica_sets(replica_sets, size):
    """The replica sets as a list of sets of ranks: those given (a rank alone
    counts as a set of one), then every other rank together."""
    sets = [{r} if isinstance(r, int) else set(r) for r in replica_sets]
    rest = set(range(size)).difference(*sets)
    if rest:
        sets.append(rest)
    return sets


class _MultiNodeSnapshot(extension.Extension):

    def __init__(self, comm, snapshot, replica_sets):
        self.comm = comm
        self.snapshot = snapshot
        for attr in ('trigger', 'priority'):
            if hasattr(snapshot, attr):
                setattr(self, attr, getattr(snapshot, attr))
        mine = next(s for s in _parse_replica_sets(replica_sets, comm.size) if comm.rank in s)
        master = min(mine)
        self.master = master
        self.replica_set = mine
        self.is_master = comm.rank == master
        filename = snapshot.filename
        if callable(filename):
            snapshot.filename = lambda trainer: '{}.{}'.format(filename(trainer), master)
        else:
            snapshot.filename = '{}.{}'.format(filename, master)

    def initialize(self, trainer):
        # With autoload, only the master looks in its out folder; it sends
        # what it loaded to the rest of its set, whose folders (on hosts of
        # their own) need not hold the file.
        if self.is_master:
            self.snapshot.initialize(trainer)
        if not getattr(self.snapshot, 'autoload', False):
            return
        target = self.snapshot._target
        if target is None:
            target = trainer
        if self.is_master:
            data = None
            if _find_latest_snapshot(self.snapshot.filename, trainer.out) is not None:
                buf = io.BytesIO()
                npz.save_npz(buf, target, compression=False)
                data = buf.getvalue()
            for rank in sorted(self.replica_set - {self.comm.rank}):
                self.comm.send_obj(data, rank)
        else:
            data = self.comm.recv_obj(self.master)
            if data is not None:
                npz.load_npz(io.BytesIO(data), target)

    def __call__(self, trainer):
        if self.is_master:
            self.snapshot(trainer)

    def on_error(self, trainer, exc, tb):
        if self.is_master:
            self.snapshot.on_error(trainer, exc, tb)

    def finalize(self, *args):
        self.snapshot.finalize(*args)


def multi_node_snapshot(comm, snapshot, replica_sets):
    """Wraps a snapshot extension for a run whose ranks hold the same state
    in groups (``replica_sets``: a list of lists of ranks; ranks left out are
    one more group; ``[]`` makes all ranks one group). Only the lowest rank
    of each group writes, to the snapshot's filename followed by ``.rank``.
    With ``autoload``, that rank loads the latest such file in its
    ``trainer.out`` and sends the loaded state to the rest of its group, so
    the ranks need not share a folder."""
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
