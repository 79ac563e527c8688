"""Walker's alias method: O(1) sampling from a discrete distribution."""

import numpy

from chainer import backend
from chainer import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Samples integers from a fixed discrete distribution in O(1) each
    (Walker's alias method).

    The ``n`` outcomes are packed into ``n`` bins of equal probability; bin
    ``i`` holds its own outcome ``values[2 i]`` with probability
    ``threshold[i]`` and an alias ``values[2 i + 1]`` otherwise. A sample
    draws one uniform number: its integer part picks the bin, its
    fractional part chooses between the two.

    Args:
        probs (array-like): Non-negative weights of the outcomes ``0 .. n-1``
            (normalized here).

    Attributes:
        threshold (numpy.ndarray): ``float32``, one per bin.
        values (numpy.ndarray): ``int32``, two per bin.
        use_gpu (bool): Whether the tables are on a GPU.

    >>> import numpy as np
    >>> sampler = WalkerAlias([0.1, 0.2, 0.7])
    >>> sampler.sample((2, 3)).shape
    (2, 3)
    """

    def __init__(self, probs):
        super().__init__()
        n = len(probs)
        prob = numpy.array(probs, numpy.float32)
        prob /= numpy.sum(prob)
        threshold = numpy.empty(n, numpy.float32)
        values = numpy.zeros(n * 2, numpy.int32)
        # Chainer's table, bit for bit: the outcomes in ascending order of
        # probability (ties by index) each take the next bin; one holding
        # more than a bin's worth first becomes the alias of the earliest
        # bins still without one, giving away what each lacks. The sums run
        # in float64 and round to float32 when stored, as NumPy 1 did.
        placed = 0   # bins taken so far
        aliased = 0  # bins [0, aliased) have their alias
        for k in numpy.argsort(prob, kind='stable'):
            p = float(prob[k]) * n
            while p > 1 and aliased < placed:
                values[aliased * 2 + 1] = k
                p -= 1.0 - float(threshold[aliased])
                aliased += 1
            threshold[placed] = p
            values[placed * 2] = k
            placed += 1
        self.threshold = threshold
        self.values = values

    @property
    def use_gpu(self):
        return backend.is_gpu_array(self.threshold)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def sample(self, shape):
        """Draws samples.

        Args:
            shape (int or tuple of ints): The shape of the result.

        Returns:
            An ``int32`` array of outcomes, on the device of the tables.
        """
        xp = backend.get_array_module(self.threshold)
        n = len(self.threshold)
        ps = xp.random.uniform(0, 1, shape)
        pb = ps * n
        index = pb.astype(numpy.int32)
        # ps < 1, but ps * n may round up to n.
        index = xp.minimum(index, n - 1)
        left_right = (self.threshold[index] < pb - index).astype(numpy.int32)
        return self.values[index * 2 + left_right]

    def sample_xp(self, xp, shape):
        """Draws samples with the array module ``xp`` (the tables' module)."""
        return self.sample(shape)

    def sample_gpu(self, shape):
        """Draws samples on the GPU (the tables must be there)."""
        return self.sample(shape)
