"""from_data: a TabularDataset from arrays, lists or callables."""

import chainer
from chainer.dataset.tabular import tabular_dataset


def from_data(data, *, size=None):
    """Makes a TabularDataset from columns.

    ``data`` is one of

    - an array or a list: one column with a generated (unique) name, in
      mode ``None``;
    - ``(key, column)``: one named column, where ``column`` is an array, a
      list or a callable ``i -> value``;
    - ``((key, ...), callable)``: columns computed by ``callable(i)``, which
      returns a tuple or a dict (that sets the mode);
    - a tuple of the above (mode ``tuple``);
    - a dict ``{key: column, (key, ...): callable}`` (mode ``dict``).

    Callables need a name and a length: ``size``, unless an array or a list
    among the columns gives it. All columns must have the same length.

    >>> import numpy as np
    >>> from chainer.dataset import tabular
    >>> data = tabular.from_data((('x', np.arange(3)), ('y', lambda i: -i)))
    >>> data.keys, data.mode
    (('x', 'y'), <class 'tuple'>)
    >>> data[2]
    (2, -2)
    >>> tabular.from_data({'a': [1, 2], 'b': [3, 4]}).fetch()
    {'a': [1, 2], 'b': [3, 4]}
    """
    if isinstance(data, tuple) and len(data) == 2 and _is_key(data[0]):
        return _make_dataset(data[0], data[1], size)
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, tuple):
        items = [d if isinstance(d, tuple) else (None, d) for d in data]
    else:
        return _make_dataset(None, data, size)
    if not items:
        raise ValueError('from_data: no columns')
    if size is None:
        size = next((len(d) for _, d in items if not callable(d)), None)
    datasets = [_make_dataset(key, d, size) for key, d in items]
    joined = datasets[0].join(*datasets[1:])
    return joined.asdict() if isinstance(data, dict) else joined.astuple()


def _is_key(key):
    return isinstance(key, str) or isinstance(key, tuple) and all(
        isinstance(k, str) for k in key)


def _make_dataset(key, data, size):
    if isinstance(data, (list,) + chainer.get_array_types()):
        if key is None:
            key = '_{}'.format(id(data))
        cls = _List if isinstance(data, list) else _Array
        return cls(key, data)
    if callable(data):
        if key is None:
            raise ValueError('from_data: a callable needs key(s)')
        if size is None:
            raise ValueError('from_data: a callable needs size=')
        return _Index(size).transform(key, data)
    raise TypeError('from_data: a column must be an array, a list or a '
                    'callable, not {}'.format(type(data).__name__))


class _Column(tabular_dataset.TabularDataset):
    """One column (repeated as often as ``key_indices`` asks for it)."""

    def __init__(self, key, data):
        self._key = key
        self._data = data

    def __len__(self):
        return len(self._data)

    @property
    def keys(self):
        return (self._key,)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        column = self._data if indices is None else self._take(indices)
        return (column,) * (1 if key_indices is None else len(key_indices))


class _Array(_Column):

    def _take(self, indices):
        return self._data[indices]


class _List(_Column):

    def _take(self, indices):
        if isinstance(indices, slice):
            return self._data[indices]
        return [self._data[i] for i in indices]


class _Index(_Column):
    """The row numbers, under the key ``'index'``: what a callable
    column is computed from."""

    def __init__(self, size):
        super().__init__('index', range(size))

    def _take(self, indices):
        if isinstance(indices, slice):
            return list(self._data[indices])
        return [self._data[i] for i in indices]
