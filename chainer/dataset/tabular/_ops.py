"""The lazy operations of TabularDataset: slicing, concat, join,
transforms, mode changes."""

import numbers

import numpy

from chainer.dataset.tabular import tabular_dataset


def rows(indices, n):
    """Normalizes row indices to a list of non-negative ints (None: all)."""
    if indices is None:
        return list(range(n))
    if isinstance(indices, slice):
        return list(range(*indices.indices(n)))
    return [i + n if i < 0 else i for i in indices]


def take(column, indices):
    """Rows of a column (array, list or ``i -> value`` callable)."""
    if callable(column):
        return [column(i) for i in indices]
    if isinstance(column, numpy.ndarray):
        return column[indices]
    return [column[i] for i in indices]


def _key_indices(keys, names):
    single = not isinstance(keys, (tuple, list))
    if single:
        keys = (keys,)
    out = []
    for key in keys:
        if isinstance(key, numbers.Integral):
            if not -len(names) <= key < len(names):
                raise IndexError('tabular: key index {} out of range'.format(
                    key))
            out.append(key % len(names))
        elif key in names:
            out.append(names.index(key))
        else:
            raise KeyError('{} does not exists'.format(key))
    return tuple(out), single


def _compose_keys(outer, inner):
    if inner is None:
        return outer
    if outer is None:
        return inner
    return tuple(outer[k] for k in inner)


class SliceHelper:

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        return Slice(self._dataset, indices, keys)


class Slice(tabular_dataset.TabularDataset):

    def __init__(self, dataset, indices, keys):
        n = len(dataset)
        if isinstance(indices, slice):
            self._rows = rows(indices, n)
        elif isinstance(indices, (list, numpy.ndarray)):
            indices = list(indices)
            if indices and all(isinstance(i, (bool, numpy.bool_))
                               for i in indices):
                if len(indices) != n:
                    raise ValueError('tabular slice: the mask has length {} '
                                     'but the dataset {}'.format(
                                         len(indices), n))
                self._rows = [i for i, keep in enumerate(indices) if keep]
            else:
                self._rows = rows(indices, n)
        else:
            raise TypeError('tabular slice: rows must be a slice or a list, '
                            'got {}'.format(type(indices).__name__))
        self._dataset = dataset
        self._mode = dataset.mode
        if keys is None:
            self._keys = None
        else:
            self._keys, single = _key_indices(keys, dataset.keys)
            if single:
                self._mode = None
            elif self._mode is None:
                self._mode = tuple

    def __len__(self):
        return len(self._rows)

    @property
    def keys(self):
        names = self._dataset.keys
        return names if self._keys is None else tuple(
            names[k] for k in self._keys)

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        selected = [self._rows[i] for i in rows(indices, len(self._rows))]
        return self._dataset.get_examples(
            selected, _compose_keys(self._keys, key_indices))


class Concat(tabular_dataset.TabularDataset):

    def __init__(self, *datasets):
        keys = datasets[0].keys
        if any(d.keys != keys for d in datasets[1:]):
            raise ValueError('All datasets must have the same keys')
        self._datasets = datasets

    def __len__(self):
        return sum(len(d) for d in self._datasets)

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def get_examples(self, indices, key_indices):
        wanted = rows(indices, len(self))
        n_keys = len(self.keys if key_indices is None else key_indices)
        columns = [[] for _ in range(n_keys)]
        # Group consecutive requests per dataset, keeping the row order.
        starts = numpy.cumsum([0] + [len(d) for d in self._datasets])
        owner = numpy.searchsorted(starts, wanted, side='right') - 1
        i = 0
        while i < len(wanted):
            j = i
            while j < len(wanted) and owner[j] == owner[i]:
                j += 1
            k = owner[i]
            part = self._datasets[k].get_examples(
                [r - starts[k] for r in wanted[i:j]], key_indices)
            for column, values in zip(columns, part):
                column.extend(values)
            i = j
        return tuple(columns)


class Join(tabular_dataset.TabularDataset):

    def __init__(self, *datasets):
        keys = [k for d in datasets for k in d.keys]
        if len(set(keys)) != len(keys):
            raise ValueError('All keys must be unique among all datasets')
        if any(len(d) != len(datasets[0]) for d in datasets):
            raise ValueError('All datasets must have the same length')
        self._datasets = datasets
        self._keys = tuple(keys)

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        mode = self._datasets[0].mode
        return tuple if mode is None else mode

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            key_indices = range(len(self._keys))
        owners = []
        for d_index, d in enumerate(self._datasets):
            owners += [(d_index, j) for j in range(len(d.keys))]
        out = []
        for k in key_indices:
            d_index, j = owners[k]
            out.append(self._datasets[d_index].get_examples(indices, (j,))[0])
        return tuple(out)


class Mode(tabular_dataset.TabularDataset):

    def __init__(self, dataset, mode):
        self._dataset = dataset
        self._mode = mode

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._dataset.keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        return self._dataset.get_examples(indices, key_indices)


def _call(f, mode, keys, values):
    if mode is dict:
        return f(**dict(zip(keys, values)))
    return f(*values)


def _mode_of(value, n_keys):
    if isinstance(value, tuple):
        return tuple
    if isinstance(value, dict):
        return dict
    if n_keys != 1:
        raise ValueError('tabular transform: {} keys but the transform '
                         'returned a single value'.format(n_keys))
    return None


class Transform(tabular_dataset.TabularDataset):

    def __init__(self, dataset, keys, transform, batch):
        self._dataset = dataset
        self._keys = (keys,) if isinstance(keys, str) else tuple(keys)
        self._transform = transform
        self._batch = batch
        self._mode = -1  # unknown until the transform has run once

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode == -1:
            if len(self) == 0:
                return tuple
            self.get_examples([0], None)
        return self._mode

    def _as_columns(self, out):
        if self._mode == -1:
            self._mode = _mode_of(out, len(self._keys))
        if isinstance(out, dict):
            return tuple(out[k] for k in self._keys)
        if isinstance(out, tuple):
            return out
        return (out,)

    def get_examples(self, indices, key_indices):
        d = self._dataset
        columns = d.get_examples(indices, None)
        if self._batch:
            out = self._as_columns(_call(self._transform, d.mode, d.keys,
                                         columns))
        else:
            examples = [self._as_columns(
                _call(self._transform, d.mode, d.keys, row))
                for row in zip(*columns)]
            out = tuple(list(c) for c in zip(*examples)) if examples else \
                tuple([] for _ in self._keys)
        if key_indices is None:
            return tuple(out)
        return tuple(out[k] for k in key_indices)


class WithConverter(Mode):

    def __init__(self, dataset, converter):
        super().__init__(dataset, dataset.mode)
        self._converter = converter

    def convert(self, data):
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
