"""TupleDataset: examples are tuples taken from equal-length datasets."""


class TupleDataset:
    """A dataset of tuples: ``dataset[i] == (d0[i], d1[i], ...)``.

    Args:
        *datasets: Datasets (lists, arrays, ...) of equal length.

    Indexing with an int gives a tuple, with a slice a list of tuples; any
    other index (a list or array of indices) is passed to each dataset and
    gives a tuple of their results (so arrays give a tuple of batches).

    >>> import numpy as np
    >>> from chainer.datasets import TupleDataset
    >>> ds = TupleDataset(np.arange(3), [10, 20, 30])
    >>> ds[1]
    (1, 20)
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('no datasets are given')
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    'dataset of the index {} has a wrong length'.format(i))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = [dataset[index] for dataset in self._datasets]
        if isinstance(index, slice):
            return list(zip(*batches))
        return tuple(batches)

    def __len__(self):
        return self._length
