"""A TabularDataset that remembers how it was read."""

import numpy

from chainer.dataset import TabularDataset


class Recorder(TabularDataset):
    """``n`` rows; column ``k`` holds ``100 * k + i + start`` in row ``i``.

    ``calls`` lists the ``(indices, key_indices)`` of each get_examples
    call. Columns come back as lists, or as arrays with ``arrays=True``.
    """

    def __init__(self, n=10, keys=('a', 'b', 'c'), mode=tuple, arrays=False,
                 start=0):
        self._keys = keys
        self._mode = mode
        self.arrays = arrays
        self.data = (numpy.arange(len(keys))[:, None] * 100
                     + numpy.arange(n) + start)
        self.calls = []

    def __len__(self):
        return self.data.shape[1]

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.calls.append((indices, key_indices))
        data = self.data
        if indices is not None:
            data = data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        return tuple(data) if self.arrays else tuple(d.tolist() for d in data)

    def rows(self, indices, key_indices=None):
        """What get_examples should return, as lists."""
        data = self.data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        return tuple(d.tolist() for d in data)
