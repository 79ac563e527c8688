import numpy

from chainer.iterators import ShuffleOrderSampler


def create_synchronized_iterator(actual_iterator, communicator):
    """Makes the shuffling ``actual_iterator`` of every rank draw the same
    orders: rank 0 picks a seed, every rank's iterator gets an order sampler
    seeded with it and is reset. Returns ``actual_iterator``."""
    seed = numpy.random.randint(0, 2 ** 31) if communicator.rank == 0 else None
    seed = communicator.bcast_obj(seed, root=0)
    actual_iterator.order_sampler = ShuffleOrderSampler(numpy.random.RandomState(seed))
    actual_iterator.reset()
    return actual_iterator
