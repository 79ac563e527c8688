"""The shared core of the iterators that read examples in workers.

The batches are planned ahead in the main process (a private state runs up
to ``n_prefetch`` batches ahead) and fetched by workers; the public state
(``epoch``, ``current_position``, ...) is the one that belongs to the batch
last returned, so it reads, and serializes, exactly as SerialIterator's.
"""

import collections

from chainer import serializer as serializer_module
from chainer.dataset import iterator
from chainer.iterators import _statemachine


class PrefetchIterator(_statemachine.StatefulIterator, iterator.Iterator):

    _n_prefetch = 1
    _pending = ()

    def _init_common(self, dataset, batch_size, repeat, shuffle,
                     order_sampler):
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = _statemachine.resolve_order_sampler(
            shuffle, order_sampler)
        self._pending = collections.deque()
        self.reset()

    # Subclasses: _submit(indices) -> handle; _collect(handle) -> list.

    def _fill(self):
        while len(self._pending) < self._n_prefetch:
            step = _statemachine.advance(
                self._ahead, self.dataset, self.batch_size, self._repeat,
                self.order_sampler)
            if step is None:
                return
            indices, self._ahead = step
            self._pending.append((self._submit(indices), self._ahead))

    def __next__(self):
        self._fill()
        if not self._pending:
            raise StopIteration
        handle, state = self._pending.popleft()
        batch = self._collect(handle)
        self._state = state
        self._fill()
        return batch

    next = __next__

    def _discard(self):
        pending, self._pending = self._pending, collections.deque()
        for handle, _ in pending:
            self._cancel(handle)

    def _cancel(self, handle):
        pass

    def reset(self):
        """Rewinds to the start of epoch 0 (and draws a new order)."""
        self._discard()
        self._state = _statemachine.initial_state(self.dataset,
                                                  self.order_sampler)
        self._ahead = self._state

    _order_key = 'order'  # the order's key in Chainer's snapshots

    def serialize(self, serializer):
        """Saves or loads the state (SerialIterator's keys). Loading
        discards the prefetched batches."""
        state = _statemachine.serialize(self._state, serializer,
                                        self.dataset, self.batch_size,
                                        self.order_sampler, self._order_key)
        if isinstance(serializer, serializer_module.Deserializer):
            self._discard()
            self._state = self._ahead = state
