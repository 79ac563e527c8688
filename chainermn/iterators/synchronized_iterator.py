import numpy

from chainer.iterators import ShuffleOrderSampler
from chainer.utils import experimental
from chainermn.iterators.multi_node_iterator import _Wrapping


class _SynchronizedIterator(_Wrapping):
    """``actual_iterator`` drawing its orders from a generator seeded alike
    on every rank; every other attribute is the actual iterator's."""

    def __init__(self, actual_iterator, communicator):
        super().__init__(actual_iterator, communicator=communicator)
        seed = numpy.random.randint(0, 2 ** 31) if communicator.rank == 0 else None
        seed = communicator.bcast_obj(seed, root=0)
        actual_iterator.order_sampler = ShuffleOrderSampler(numpy.random.RandomState(seed))
        actual_iterator.reset()

    def __next__(self):
        return self.actual_iterator.next()

    next = __next__

    def serialize(self, serializer):
        # The generator's state is saved with the iterator (under
        # ``order_sampler/``), so a resumed run shuffles as the first one.
        self.actual_iterator.serialize(serializer)


def create_synchronized_iterator(actual_iterator, communicator):
    """``actual_iterator`` made to shuffle alike on every rank: rank 0 picks
    a seed, and every rank's iterator gets an order sampler seeded with it and
    is reset (a collective call). For model parallelism, where every rank
    reads its own copy of the dataset and must see the same batches, without
    sending them as :func:`create_multi_node_iterator` does."""
    experimental('chainermn.iterators.create_synchronized_iterator')
    return _SynchronizedIterator(actual_iterator, communicator)
