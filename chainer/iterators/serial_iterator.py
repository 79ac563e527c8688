"""SerialIterator: minibatches read in the main thread."""

from chainer.dataset import iterator
from chainer.iterators import _statemachine


class SerialIterator(_statemachine.StatefulIterator, iterator.Iterator):
    """Makes minibatches from a dataset, in the calling thread.

    Args:
        dataset: The dataset (anything with ``__len__`` and
            ``__getitem__``).
        batch_size (int): The number of examples per batch.
        repeat (bool): Loop over the dataset forever; otherwise stop
            (``StopIteration``) after one epoch, whose last batch may be
            smaller.
        shuffle (bool): Visit the examples in a new random order every
            epoch (``numpy.random``, so ``numpy.random.seed`` reproduces
            it). ``None`` means True unless ``order_sampler`` is given.
        order_sampler (callable): An :class:`OrderSampler` choosing the
            order of each epoch; give it with ``shuffle=None``.

    With ``repeat=True``, a batch that crosses the end of an epoch is
    completed with the first examples of the next epoch.

    >>> from chainer.iterators import SerialIterator
    >>> it = SerialIterator([1, 2, 3], 2, repeat=False, shuffle=False)
    >>> list(it)
    [[1, 2], [3]]
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 order_sampler=None):
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = _statemachine.resolve_order_sampler(
            shuffle, order_sampler)
        self.reset()

    def __next__(self):
        step = _statemachine.advance(self._state, self.dataset,
                                     self.batch_size, self._repeat,
                                     self.order_sampler)
        if step is None:
            raise StopIteration
        indices, self._state = step
        dataset = self.dataset
        return [dataset[i] for i in indices]

    next = __next__

    def reset(self):
        """Rewinds to the start of epoch 0 (and draws a new order)."""
        self._state = _statemachine.initial_state(self.dataset,
                                                  self.order_sampler)

    def serialize(self, serializer):
        """Saves or loads the position, epoch and order (Chainer's keys:
        ``current_position``, ``epoch``, ``is_new_epoch``, ``order``,
        ``previous_epoch_detail``)."""
        self._state = _statemachine.serialize(
            self._state, serializer, self.dataset, self.batch_size,
            self.order_sampler)
