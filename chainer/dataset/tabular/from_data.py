"""from_data: a TabularDataset from arrays, lists or callables."""

from chainer.dataset.tabular import _ops
from chainer.dataset.tabular import tabular_dataset


def _named(column):
    if isinstance(column, tuple) and len(column) == 2 and \
            isinstance(column[0], str):
        return column
    return '_{}'.format(id(column)), column


class _Columns(tabular_dataset.TabularDataset):

    def __init__(self, keys, columns, mode, size):
        self._keys = tuple(keys)
        self._columns = list(columns)
        self._mode = mode
        lengths = {len(c) for c in self._columns if not callable(c)}
        if size is not None:
            lengths.add(size)
        if len(lengths) != 1:
            if not lengths:
                raise ValueError('from_data: callable columns need size=')
            raise ValueError('from_data: the columns have different '
                             'lengths {}'.format(sorted(lengths)))
        self._size = lengths.pop()

    def __len__(self):
        return self._size

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            key_indices = range(len(self._columns))
        out = []
        for k in key_indices:
            column = self._columns[k]
            if indices is None and not callable(column):
                out.append(column)
            else:
                out.append(_ops.take(column, _ops.rows(indices, self._size)))
        return tuple(out)


def from_data(data, *, size=None):
    """Makes a TabularDataset from columns.

    ``data`` is one of: an array, a list or an ``i -> value`` callable (one
    unnamed column; mode ``None``); a ``(name, column)`` pair (one named
    column); a tuple of columns or pairs (mode ``tuple``); a dict from name
    to column (mode ``dict``). Unnamed columns get generated names.
    Callable columns need ``size``.

    >>> import numpy as np
    >>> from chainer.dataset.tabular import from_data
    >>> ds = from_data({'x': np.arange(3), 'y': [4, 5, 6]})
    >>> ds[1]
    {'x': np.int64(1), 'y': 5}
    """
    if isinstance(data, dict):
        return _Columns(data.keys(), data.values(), dict, size)
    if isinstance(data, tuple):
        if len(data) == 2 and isinstance(data[0], str):
            return _Columns([data[0]], [data[1]], None, size)
        pairs = [_named(c) for c in data]
        return _Columns([k for k, _ in pairs], [c for _, c in pairs], tuple,
                        size)
    key, column = _named(data)
    return _Columns([key], [column], None, size)
