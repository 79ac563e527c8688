"""The position of an iterator in its dataset, and how it advances.

States are never modified, only replaced, so an iterator that prefetches
can run a state ahead while keeping, for each prefetched batch, the state
that becomes public when that batch is returned.
"""

import collections

import numpy

# ``sampler_state``: the state of the order sampler's own generator (a
# ShuffleOrderSampler given a RandomState) right after it drew ``order``, so
# that a resumed iterator draws the same orders as one never stopped.
IteratorState = collections.namedtuple(
    'IteratorState', ('current_position', 'epoch', 'is_new_epoch', 'order',
                      'previous_epoch_detail', 'sampler_state'),
    defaults=(None,))


def _random_state(order_sampler):
    random = getattr(order_sampler, '_random', None)
    if isinstance(random, numpy.random.RandomState):
        return random
    return None


def _sampler_state(order_sampler):
    random = _random_state(order_sampler)
    return None if random is None else random.get_state()


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
    return IteratorState(0, 0, False, order, -1.,
                         _sampler_state(order_sampler))


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
    sampler_state = state.sampler_state
    while position + need >= size:  # the batch reaches the epoch's end
        indices += _take(order, position, size)
        need -= size - position
        if order is not None:
            order = _sample(order_sampler, order, position)
            sampler_state = _sampler_state(order_sampler)
        epoch += 1
        is_new_epoch = True
        position = 0
        if not repeat:
            need = 0
            break
    indices += _take(order, position, position + need)
    return indices, IteratorState(position + need, epoch, is_new_epoch,
                                  order, previous, sampler_state)


def serialize(state, serializer, dataset, batch_size, order_sampler=None,
              order_key='order'):
    """Saves or loads ``state`` with Chainer's keys; returns the state.

    ``order_key`` names the order: ``'order'`` (written only where there
    is one), or ``'_order'`` (MultithreadIterator's key in Chainer, written
    always, None without shuffling). The generator state of a
    ShuffleOrderSampler given a RandomState is kept too, under
    ``order_sampler/`` (a snapshot without it, such as Chainer's, loads and
    leaves the generator as it is).
    """
    from chainer import serializer as serializer_module
    position = serializer('current_position', state.current_position)
    epoch = serializer('epoch', state.epoch)
    is_new_epoch = serializer('is_new_epoch', state.is_new_epoch)
    order = state.order
    loading = isinstance(serializer, serializer_module.Deserializer)
    if order_key == '_order' and order is None and not loading:
        serializer('_order', None)
    elif order is not None:
        other = '_order' if order_key == 'order' else 'order'
        try:
            serializer(order_key, order)
        except KeyError:
            serializer(other, order)  # the other key (old versions, ours)
    try:
        previous = serializer('previous_epoch_detail',
                              state.previous_epoch_detail)
    except KeyError:
        # Snapshots of old versions lack it: estimate it from the position.
        size = len(dataset) if order is None else len(order)
        previous = epoch + (position - batch_size) / size
        previous = max(previous, 0.) if epoch + position / size > 0 \
            else -1.
    sampler_state = _serialize_random(
        state.sampler_state, serializer, order_sampler)
    return IteratorState(int(position), int(epoch), bool(is_new_epoch),
                         order, float(previous), sampler_state)


def _serialize_random(saved, serializer, order_sampler):
    random = _random_state(order_sampler)
    if random is None:
        return None
    from chainer import serializer as serializer_module
    try:
        child = serializer['order_sampler']
    except NotImplementedError:
        # a serializer of flat keys only (Chainer's iterators never asked
        # for a child): the generator is neither saved nor restored
        return saved
    if not isinstance(serializer, serializer_module.Deserializer):
        if saved is None:
            saved = random.get_state()
        _, keys, pos, has_gauss, gauss = saved
        child('keys', keys)
        child('pos', pos)
        child('has_gauss', has_gauss)
        child('cached_gaussian', gauss)
        return saved
    try:
        keys = child('keys', numpy.zeros(624, numpy.uint32))
        pos = child('pos', 0)
        has_gauss = child('has_gauss', 0)
        gauss = child('cached_gaussian', 0.)
    except KeyError:  # written without it (Chainer's own snapshots)
        return saved
    loaded = ('MT19937', numpy.asarray(keys, numpy.uint32), int(pos),
              int(has_gauss), float(gauss))
    random.set_state(loaded)
    return loaded


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
