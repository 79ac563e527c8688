"""The position of an iterator in its dataset, and how it advances.

States are never modified, only replaced, so an iterator that prefetches
can run a state ahead while keeping, for each prefetched batch, the state
that becomes public when that batch is returned.
"""

import collections

import numpy

IteratorState = collections.namedtuple(
    'IteratorState', ('current_position', 'epoch', 'is_new_epoch', 'order',
                      'previous_epoch_detail'))


def epoch_size(state, dataset):
    return len(dataset) if state.order is None else len(state.order)


def epoch_detail(state, dataset):
    size = epoch_size(state, dataset)
    return state.epoch + (state.current_position / size if size else 0.)


def _sample(order_sampler, order, position):
    new_order = numpy.array(order_sampler(order, position))
    if len(new_order) != len(order):
        raise ValueError('The size of order does not match the size of '
                         'the previous order.')
    return new_order


def initial_state(dataset, order_sampler):
    order = None
    if order_sampler is not None:
        # the first order sets the epoch size, which may differ from the
        # dataset's (a sampler that repeats examples); later ones keep it
        order = numpy.array(order_sampler(numpy.arange(len(dataset)), 0))
    return IteratorState(0, 0, False, order, -1.)


def _take(order, start, stop):
    return list(range(start, stop)) if order is None \
        else list(order[start:stop])


def advance(state, dataset, batch_size, repeat, order_sampler):
    """Returns ``(indices, next_state)`` for the next batch, or ``None``
    when a non-repeating iterator has finished its epoch. A batch larger
    than the epoch spans several epochs."""
    if not repeat and state.epoch > 0:
        return None
    size = epoch_size(state, dataset)
    if repeat and size == 0:
        raise ValueError('Epoch size must be positive for an iterator '
                         'that repeats.')
    previous = epoch_detail(state, dataset)
    order = state.order
    position = state.current_position
    epoch = state.epoch
    need = batch_size
    indices = []
    is_new_epoch = False
    while position + need >= size:  # the batch reaches the epoch's end
        indices += _take(order, position, size)
        need -= size - position
        if order is not None:
            order = _sample(order_sampler, order, position)
        epoch += 1
        is_new_epoch = True
        position = 0
        if not repeat:
            need = 0
            break
    indices += _take(order, position, position + need)
    return indices, IteratorState(position + need, epoch, is_new_epoch,
                                  order, previous)


def serialize(state, serializer, dataset, batch_size):
    """Saves or loads ``state`` with Chainer's keys; returns the state."""
    position = serializer('current_position', state.current_position)
    epoch = serializer('epoch', state.epoch)
    is_new_epoch = serializer('is_new_epoch', state.is_new_epoch)
    order = state.order
    if order is not None:
        try:
            serializer('order', order)
        except KeyError:
            serializer('_order', order)  # written by old Chainer versions
    try:
        previous = serializer('previous_epoch_detail',
                              state.previous_epoch_detail)
    except KeyError:
        # Snapshots of old versions lack it: estimate it from the position.
        size = len(dataset) if order is None else len(order)
        previous = epoch + (position - batch_size) / size
        previous = max(previous, 0.) if epoch + position / size > 0 \
            else -1.
    return IteratorState(int(position), int(epoch), bool(is_new_epoch),
                         order, float(previous))


class StatefulIterator:
    """Mixin: the public progress properties, read from ``self._state``
    (``self.dataset`` and ``self.batch_size`` must exist)."""

    @property
    def current_position(self):
        return self._state.current_position

    @property
    def epoch(self):
        return self._state.epoch

    @property
    def is_new_epoch(self):
        return self._state.is_new_epoch

    @property
    def epoch_detail(self):
        return epoch_detail(self._state, self.dataset)

    @property
    def previous_epoch_detail(self):
        previous = self._state.previous_epoch_detail
        return None if previous < 0 else previous

    @property
    def repeat(self):
        return self._repeat

    @property
    def _epoch_size(self):
        return epoch_size(self._state, self.dataset)

    @property
    def _order(self):
        return self._state.order


def resolve_order_sampler(shuffle, order_sampler):
    from chainer.iterators import order_samplers
    if shuffle is not None and order_sampler is not None:
        raise ValueError(
            '`shuffle` is not `None` and a custom `order_sampler` is set. '
            'Please set `shuffle` to `None` to use the custom order '
            'sampler.')
    if order_sampler is None and (shuffle is None or shuffle):
        order_sampler = order_samplers.ShuffleOrderSampler()
    return order_sampler
