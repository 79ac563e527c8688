"""dataset.slice[rows, keys]: a view of some rows and columns.

Slices stay slices on their way down to the dataset (composed with the
view's own), so a dataset that reads a slice cheaply keeps doing so.
"""

import numbers
import operator

import numpy

from chainer.dataset.tabular import _view


class _SliceHelper:

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        return _Slice(self._dataset, indices, keys)


class _Slice(_view._View):

    def __init__(self, dataset, indices, keys):
        super().__init__(dataset)
        self._indices = _as_indices(indices, len(dataset))
        # mode: None keeps the dataset's, False a tuple of keys, True one key
        if keys is None:
            self._unary = None
            self._key_indices = None
        else:
            self._unary = not isinstance(keys, tuple)
            self._key_indices = _as_key_indices(
                (keys,) if self._unary else keys, dataset.keys)

    def __len__(self):
        if isinstance(self._indices, slice):
            return len(range(*self._indices.indices(len(self._dataset))))
        return len(self._indices)

    @property
    def keys(self):
        keys = self._dataset.keys
        if self._key_indices is None:
            return keys
        return tuple(keys[k] for k in self._key_indices)

    @property
    def mode(self):
        if self._unary is None:
            return self._dataset.mode
        return None if self._unary else self._dataset.mode or tuple

    def get_examples(self, indices, key_indices):
        indices = _merge_indices(
            self._indices, indices, len(self._dataset), len(self))
        if key_indices is None:
            key_indices = self._key_indices
        elif self._key_indices is not None:
            key_indices = tuple(self._key_indices[k] for k in key_indices)
        return self._dataset.get_examples(indices, key_indices)


def _as_rows(indices, n):
    """Row numbers (negatives count from the end) checked against the
    length ``n``, as a list of non-negative ints."""
    rows = []
    for i in indices:
        i = operator.index(i)
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError('index {} is out of bounds for dataset with '
                             'size {}'.format(j, n))
        rows.append(j)
    return rows


def _as_indices(indices, n):
    """The rows of a slice view: a slice as it is, else a checked list."""
    if isinstance(indices, slice):
        return indices
    if isinstance(indices, numpy.ndarray):
        indices = indices.tolist()
    if len(indices) and all(isinstance(i, (bool, numpy.bool_))
                            for i in indices):
        if len(indices) != n:
            raise ValueError('The number of booleans is different from the '
                             'length of dataset')
        return [i for i, keep in enumerate(indices) if keep]
    return _as_rows(indices, n)


def _as_key_indices(keys, names):
    key_indices = []
    for key in keys:
        if isinstance(key, numbers.Integral):
            k = key + len(names) if key < 0 else key
            if not 0 <= k < len(names):
                raise IndexError('index {} is out of bounds for keys with '
                                 'size {}'.format(key, len(names)))
        elif key in names:
            k = names.index(key)
        else:
            raise KeyError('{} does not exists'.format(key))
        key_indices.append(k)
    return tuple(key_indices)


def _merge_indices(a, b, len_a, len_b):
    """The rows ``b`` of the rows ``a`` (of a dataset of length ``len_a``;
    ``b`` counts in the ``len_b`` rows that ``a`` selects)."""
    if b is None:
        return a
    if isinstance(a, slice):
        a = range(*a.indices(len_a))
        if isinstance(b, slice):
            return _range_to_slice(a[b])
        return [a[i] for i in _as_rows(b, len_b)]
    if isinstance(b, slice):
        return a[b]
    return [a[i] for i in _as_rows(b, len_b)]


def _range_to_slice(r):
    if not r:
        return slice(0, 0)
    # a stop below 0 would count from the end: None says "past row 0"
    return slice(r.start, r.stop if r.stop >= 0 else None, r.step)
