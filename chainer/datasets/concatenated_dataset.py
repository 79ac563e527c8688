"""ConcatenatedDataset: several datasets, one after another."""

import bisect
import itertools

from chainer.dataset import dataset_mixin


class ConcatenatedDataset(dataset_mixin.DatasetMixin):
    """The examples of several datasets in sequence.

    >>> from chainer.datasets import ConcatenatedDataset
    >>> ds = ConcatenatedDataset([1, 2], [3, 4, 5])
    >>> len(ds), ds[2]
    (5, 3)
    """

    def __init__(self, *datasets):
        self._datasets = datasets
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        # Like Chainer, a negative integer index is out of range (slices,
        # resolved by DatasetMixin, may still count from the end).
        if not 0 <= i < len(self):
            raise IndexError  # bare, as Chainer's
        k = bisect.bisect_right(self._ends, i)
        start = self._ends[k - 1] if k else 0
        return self._datasets[k][i - start]
