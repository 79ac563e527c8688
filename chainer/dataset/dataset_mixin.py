"""DatasetMixin: indexing (ints, slices, index lists) on top of
``get_example``."""

import numpy


class DatasetMixin:
    """Gives a dataset Chainer's indexing on top of ``get_example(i)``.

    A subclass implements ``__len__()`` and ``get_example(i)``. Then
    ``dataset[i]`` is one example, and ``dataset[slice]``,
    ``dataset[[i, j]]`` or ``dataset[numpy.array([i, j])]`` a list of them.
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get_example(i)
                    for i in range(*index.indices(len(self)))]
        if isinstance(index, list):
            return [self.get_example(i) for i in index]
        if isinstance(index, numpy.ndarray):
            if index.ndim != 1:
                raise IndexError(
                    'dataset index array must be 1-d, got shape {}'.format(
                        index.shape))
            return [self.get_example(i) for i in index]
        return self.get_example(index)

    def __len__(self):
        raise NotImplementedError

    def get_example(self, i):
        """Returns the ``i``-th example."""
        raise NotImplementedError
