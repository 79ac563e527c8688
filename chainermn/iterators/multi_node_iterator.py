"""One iterator read on one rank, its batches broadcast to all."""


def _build_ctrl_msg(stop, is_new_epoch, epoch, epoch_detail, previous_epoch_detail):
    return (bool(stop), bool(is_new_epoch), int(epoch), float(epoch_detail),
            previous_epoch_detail)


def _parse_ctrl_msg(msg):
    return msg


class _MultiNodeIterator:
    """The master rank steps the actual iterator; every ``next`` broadcasts
    its batch and its position (``epoch``, ``is_new_epoch``, ...) so that all
    ranks see the same batches and stop together."""

    def __init__(self, actual_iterator, communicator, rank_master):
        self.communicator = communicator
        self.rank_master = rank_master
        self.actual_iterator = actual_iterator if communicator.rank == rank_master else None
        self._state = _build_ctrl_msg(False, False, 0, 0., None)

    def __iter__(self):
        return self

    def __next__(self):
        comm = self.communicator
        msg = batch = None
        if comm.rank == self.rank_master:
            it = self.actual_iterator
            try:
                batch = next(it)
                msg = _build_ctrl_msg(False, it.is_new_epoch, it.epoch, it.epoch_detail,
                                      it.previous_epoch_detail)
            except StopIteration:
                msg = _build_ctrl_msg(True, False, it.epoch, it.epoch_detail,
                                      it.previous_epoch_detail)
        msg, batch = comm.bcast_obj((msg, batch), root=self.rank_master)
        self._state = _parse_ctrl_msg(msg)
        if msg[0]:
            raise StopIteration
        return batch

    next = __next__

    is_new_epoch = property(lambda self: self._state[1])
    epoch = property(lambda self: self._state[2])
    epoch_detail = property(lambda self: self._state[3])
    previous_epoch_detail = property(lambda self: self._state[4])

    @property
    def batch_size(self):
        return self.communicator.bcast_obj(
            self.actual_iterator.batch_size if self.actual_iterator is not None else None,
            root=self.rank_master)

    def reset(self):
        if self.actual_iterator is not None:
            self.actual_iterator.reset()

    def finalize(self):
        if self.actual_iterator is not None:
            self.actual_iterator.finalize()

    def serialize(self, serializer):
        if self.actual_iterator is not None:
            self.actual_iterator.serialize(serializer)


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """An iterator whose batches come from ``actual_iterator`` on rank
    ``rank_master``, broadcast to every rank (the others' ``actual_iterator``
    is not read; it may be None). For model parallelism, where every rank
    must see the same batch. All ranks must call ``next`` together."""
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
