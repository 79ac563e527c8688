from chainer.training import extension


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
        self.is_master = comm.rank == master
        filename = snapshot.filename
        if callable(filename):
            snapshot.filename = lambda trainer: '{}.{}'.format(filename(trainer), master)
        else:
            snapshot.filename = '{}.{}'.format(filename, master)

    def initialize(self, trainer):
        # Every member of a set loads its master's snapshot (autoload).
        self.snapshot.initialize(trainer)

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
    of each group writes, to the snapshot's filename followed by ``.rank``;
    every member of the group resumes from that file."""
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
