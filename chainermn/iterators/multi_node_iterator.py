"""One iterator read on one rank, its batches broadcast to all."""

import numbers

import numpy

from chainer.utils import experimental


def _build_ctrl_msg(stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
                    current_position):
    """The control part of a step, as one array (float64 counts positions
    exactly up to 2**53)."""
    return numpy.array([stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
                        current_position], dtype=numpy.float64)


def _parse_ctrl_msg(msg):
    stop, valid, paired, is_new_epoch, position = msg.tolist()
    return bool(stop), bool(valid), bool(paired), bool(is_new_epoch), int(position)


def _is_valid_type(element):
    """Whether a batch element is what this iterator carries: a number or a
    numeric array (NumPy or CuPy), or a tuple of them."""
    if isinstance(element, tuple):
        return all(_is_valid_type(e) for e in element)
    if isinstance(element, numbers.Number):
        return True
    kind = getattr(getattr(element, 'dtype', None), 'kind', None)
    return kind is not None and kind in 'biufc'


def _order(iterator):
    return getattr(getattr(iterator, '_state', None), 'order', None)


def _position(iterator):
    """What the other ranks mirror of the master's iterator."""
    order = _order(iterator)
    return {'epoch': iterator.epoch, 'is_new_epoch': iterator.is_new_epoch,
            'current_position': iterator.current_position, 'order': order,
            'previous_epoch_detail': iterator.previous_epoch_detail,
            'epoch_size': len(order) if order is not None else len(iterator.dataset),
            'batch_size': iterator.batch_size}


class _Wrapping:
    """An iterator wrapped by a rank-aware one: every attribute the wrapper
    does not hold itself (in ``__dict__``) is the actual iterator's."""

    def __init__(self, actual_iterator, **own):
        self.__dict__.update(actual_iterator=actual_iterator, **own)

    def __getattr__(self, name):
        return getattr(self.actual_iterator, name)

    def __setattr__(self, name, value):
        setattr(self.actual_iterator, name, value)

    def __iter__(self):
        return self


class _MultiNodeIteratorMaster(_Wrapping):
    """The rank that reads: steps the actual iterator, broadcasts each batch
    with its position. Any other attribute is the actual iterator's."""

    def __init__(self, actual_iterator, communicator, rank_master):
        super().__init__(actual_iterator, communicator=communicator,
                         rank_master=rank_master)
        communicator.bcast_obj(_position(actual_iterator), root=rank_master)

    def __next__(self):
        it = self.actual_iterator
        try:
            batch = it.next()
        except StopIteration:
            batch = None
        valid = batch is None or all(_is_valid_type(e) for e in batch)
        paired = bool(batch) and isinstance(batch[0], tuple)
        msg = _build_ctrl_msg(batch is None, valid, paired, it.is_new_epoch,
                              it.current_position)
        # The order travels when it may have changed: at a new epoch.
        order = _order(it) if it.is_new_epoch else None
        self.communicator.bcast_obj(
            (msg, it.epoch, it.previous_epoch_detail, order, batch if valid else None),
            root=self.rank_master)
        _check(msg, batch, self.rank_master)
        return batch

    next = __next__

    def reset(self):
        """Resets the actual iterator; all ranks call it together."""
        self.actual_iterator.reset()
        self.communicator.bcast_obj(_position(self.actual_iterator), root=self.rank_master)


def _check(msg, batch, rank_master):
    stop, valid, _, _, _ = _parse_ctrl_msg(msg)
    if stop:
        raise StopIteration
    if not valid:
        raise TypeError(
            'create_multi_node_iterator carries numbers and numeric arrays, or tuples of '
            'them; the iterator of rank {} gave {}'.format(
                rank_master, '' if batch is None else type(batch[0]).__name__))


class _MultiNodeIteratorSlave:
    """A rank that does not read: receives each batch from the master and
    mirrors its position (which it saves, so that a snapshot of any rank
    holds the same state). Its order is the master's and loading does not
    change it."""

    def __init__(self, communicator, rank_master):
        self.communicator = communicator
        self.rank_master = rank_master
        self._mirror(communicator.bcast_obj(None, root=rank_master))

    def _mirror(self, position):
        self.epoch = position['epoch']
        self.is_new_epoch = position['is_new_epoch']
        self.current_position = position['current_position']
        self._order = position['order']
        self.previous_epoch_detail = position['previous_epoch_detail']
        self._epoch_size = position['epoch_size']
        self.batch_size = position['batch_size']

    @property
    def epoch_detail(self):
        return self.epoch + self.current_position / self._epoch_size

    def __iter__(self):
        return self

    def __next__(self):
        msg, epoch, previous, order, batch = self.communicator.bcast_obj(
            None, root=self.rank_master)
        _check(msg, batch, self.rank_master)
        _, _, _, self.is_new_epoch, self.current_position = _parse_ctrl_msg(msg)
        self.epoch, self.previous_epoch_detail = epoch, previous
        if order is not None:
            self._order = order
        return batch

    next = __next__

    def reset(self):
        self._mirror(self.communicator.bcast_obj(None, root=self.rank_master))

    def finalize(self):
        pass

    def serialize(self, serializer):
        self.current_position = serializer('current_position', self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        if self._order is not None:
            # Written, but never read back: the order is the master's.
            serializer('order', self._order.copy())
        try:
            self.previous_epoch_detail = serializer('previous_epoch_detail',
                                                    self.previous_epoch_detail)
        except KeyError:
            pass


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """An iterator whose batches come from ``actual_iterator`` on rank
    ``rank_master``, broadcast to every rank (the others' ``actual_iterator``
    is not read; it may be None).

    For model parallelism, where every rank must see the same batch. The
    examples must be numbers or numeric arrays, or tuples of them (every
    rank raises :class:`TypeError` otherwise). Creating it, ``next`` and
    ``reset`` are collective: all ranks call them together. On the master,
    every other attribute is the actual iterator's; the other ranks mirror
    its position (``epoch``, ``epoch_detail``, ``is_new_epoch``, ...), and
    ``serialize`` writes it in the actual iterator's keys on every rank.
    """
    experimental('chainermn.iterators.create_multi_node_iterator')
    if communicator.rank == rank_master:
        return _MultiNodeIteratorMaster(actual_iterator, communicator, rank_master)
    return _MultiNodeIteratorSlave(communicator, rank_master)
