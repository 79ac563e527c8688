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
        prob = numpy.array(probs, numpy.float64)
        n = len(prob)
        prob = prob / numpy.sum(prob) * n
        order = numpy.argsort(prob, kind='stable')
        threshold = numpy.ones(n, numpy.float64)
        values = numpy.zeros(n * 2, numpy.int32)
        # The bins are filled in ascending order of probability: bin ``i``
        # takes the i-th smallest outcome, and its alias is the smallest
        # outcome still holding more than one bin's worth (``order[j]``),
        # which gives away what bin ``i`` lacks. An outcome falling below
        # one bin's worth gets its own bin later, as ``i`` reaches it.
        j = numpy.searchsorted(prob[order], 1.0, side='left')
        for i in range(n):
            k = order[i]
            threshold[i] = prob[k]
            values[2 * i] = k
            if j < n and j > i:
                big = order[j]
                values[2 * i + 1] = big
                prob[big] -= 1.0 - prob[k]
                if prob[big] < 1.0:
                    j += 1
        self.threshold = threshold.astype(numpy.float32)
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
