"""Order samplers: they choose the order in which an iterator visits the
examples of each epoch."""

import numpy


class OrderSampler:
    """The base class of order samplers.

    An iterator calls ``sampler(current_order, current_position)`` when it
    starts (``current_order`` is ``numpy.arange(len(dataset))``) and at the
    end of each epoch; the sampler returns the order of the next epoch, an
    integer array of the same length.
    """

    def __call__(self, current_order, current_position):
        raise NotImplementedError


class ShuffleOrderSampler(OrderSampler):
    """Visits the examples in a fresh random permutation every epoch.

    Args:
        random_state (numpy.random.RandomState): The generator. ``None``
            uses ``numpy.random``'s global state, so ``numpy.random.seed``
            makes the order reproducible.
    """

    def __init__(self, random_state=None):
        self._random = random_state

    def __call__(self, current_order, current_position):
        if self._random is None:
            return numpy.random.permutation(len(current_order))
        return self._random.permutation(len(current_order))
