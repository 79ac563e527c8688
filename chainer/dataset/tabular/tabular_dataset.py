"""TabularDataset: a dataset of named columns, read in batches."""

import numpy

import chainer
from chainer import backend
from chainer.dataset import dataset_mixin


class TabularDataset(dataset_mixin.DatasetMixin):
    """The base class of tabular datasets: rows of named columns.

    Every example has one value per column. :attr:`mode` says how an
    example looks: a tuple ``(a[i], b[i])``, a dict ``{'a': a[i], 'b':
    b[i]}``, or, for a single column, the bare value ``a[i]`` (mode
    ``None``).

    A subclass implements ``__len__``, :attr:`keys`, :attr:`mode` and
    :meth:`get_examples`. Everything else (indexing, row and column slices,
    concatenation, joins, transforms) is built on them, lazily: a view
    reads only the rows and columns it is asked for.

    >>> import numpy as np
    >>> from chainer import dataset
    >>> class Squares(dataset.TabularDataset):
    ...     def __len__(self):
    ...         return 4
    ...     @property
    ...     def keys(self):
    ...         return ('x', 'y')
    ...     @property
    ...     def mode(self):
    ...         return tuple
    ...     def get_examples(self, indices, key_indices):
    ...         x = np.arange(4)
    ...         if indices is not None:
    ...             x = x[indices]
    ...         columns = (x, x * x)
    ...         if key_indices is None:
    ...             return columns
    ...         return tuple(columns[k] for k in key_indices)
    >>> data = Squares()
    >>> data[3]
    (3, 9)
    >>> view = data.slice[[3, 1], 'y']
    >>> view.mode is None, view.fetch().tolist()
    (True, [9, 1])
    """

    def __len__(self):
        raise NotImplementedError

    @property
    def keys(self):
        """The column names (a tuple of str)."""
        raise NotImplementedError

    @property
    def mode(self):
        """``tuple``, ``dict`` or ``None`` (one column, returned bare): the
        form of what :meth:`fetch` and indexing return."""
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        """Returns some rows of some columns, as a tuple of columns (each a
        list or an array).

        Args:
            indices (list of ints or slice): The rows; ``None`` for all.
            key_indices (tuple of ints): The columns, by position in
                :attr:`keys`; ``None`` for all.
        """
        raise NotImplementedError

    @property
    def slice(self):
        """Selects rows and columns lazily: ``dataset.slice[rows]`` or
        ``dataset.slice[rows, keys]``.

        ``rows`` is a slice, or a list or array of ints or of bools (a
        mask as long as the dataset). ``keys`` is a name or a position (the
        view has mode ``None``), or a tuple of them (the view keeps the mode,
        ``tuple`` if it was ``None``). Rows and keys are checked at once:
        IndexError for a position out of range, KeyError for an unknown name,
        ValueError for a mask of the wrong length.
        """
        from chainer.dataset.tabular import _slice
        return _slice._SliceHelper(self)

    def fetch(self):
        """Returns all the data, column by column, in the form of
        :attr:`mode`: a tuple or a dict of columns, or the one column."""
        return self._arrange(self.get_examples(None, None))

    def _arrange(self, values):
        mode = self.mode
        if mode is tuple:
            return tuple(values)
        if mode is dict:
            return dict(zip(self.keys, values))
        return values[0]

    def convert(self, data):
        """Prepares fetched data for a model: by default each column
        becomes an array (on the device of its first element).

        :meth:`with_converter` replaces this; a :meth:`concat` or
        :meth:`join` converts as its first dataset does.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(column) for column in data)
        if isinstance(data, dict):
            return {k: _as_array(column) for k, column in data.items()}
        return _as_array(data)

    def astuple(self):
        """The same data, in mode ``tuple``."""
        from chainer.dataset.tabular import _asmode
        return _asmode._Astuple(self)

    def asdict(self):
        """The same data, in mode ``dict``."""
        from chainer.dataset.tabular import _asmode
        return _asmode._Asdict(self)

    def concat(self, *datasets):
        """Stacks datasets with the same :attr:`keys` row after row."""
        from chainer.dataset.tabular import _concat
        return _concat._Concat(self, *datasets)

    def join(self, *datasets):
        """Puts datasets of the same length, whose keys differ, side by
        side. The mode is the first one that is not ``None`` (else
        ``tuple``)."""
        from chainer.dataset.tabular import _join
        return _join._Join(self, *datasets)

    def transform(self, keys, transform):
        """Applies ``transform`` to each example.

        ``transform`` gets the example's values as arguments (keyword
        arguments in mode ``dict``) and returns the new example: a tuple, a
        dict or a bare value, which sets the mode of the view (it must not
        change from call to call). ``keys`` names the new columns.
        """
        from chainer.dataset.tabular import _transform
        return _transform._Transform(self, keys, transform)

    def transform_batch(self, keys, transform_batch):
        """Like :meth:`transform`, on whole columns at once; the columns it
        returns must keep their length."""
        from chainer.dataset.tabular import _transform
        return _transform._TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter):
        """The same data, whose :meth:`convert` calls ``converter`` with
        the fetched columns as arguments (keyword arguments in mode
        ``dict``)."""
        from chainer.dataset.tabular import _with_converter
        return _with_converter._WithConverter(self, converter)

    def get_example(self, i):
        return self._arrange([column[0] for column in
                              self.get_examples([i], None)])

    def __iter__(self):
        return (self.get_example(i) for i in range(len(self)))


def _as_array(column):
    if isinstance(column, chainer.get_array_types()):
        return column
    if len(column) == 0:
        return numpy.asarray(column)
    device = backend.get_device_from_array(column[0])
    with chainer.using_device(device):
        return device.xp.asarray(column)
