"""TabularDataset: a dataset of named columns, read in batches."""

import numpy

from chainer.dataset import dataset_mixin


def _convert_column(column):
    return numpy.asarray(column)


class TabularDataset(dataset_mixin.DatasetMixin):
    """The base class of tabular datasets: rows of named columns.

    A subclass implements ``__len__``, the properties :attr:`keys` (the
    column names) and :attr:`mode` (``tuple``, ``dict`` or ``None``: how
    one example is returned; ``None`` is for a single column, returned
    bare), and :meth:`get_examples`. Everything else (indexing, slicing by
    rows and columns, concatenation, joins and transforms) is built on them,
    lazily: only the rows and columns asked for are read.
    """

    @property
    def keys(self):
        """The column names (a tuple of str)."""
        raise NotImplementedError

    @property
    def mode(self):
        """``tuple``, ``dict`` or ``None`` (a single column)."""
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        """Returns a tuple of columns (lists or arrays).

        Args:
            indices (list of ints or slice): The rows; ``None`` for all.
            key_indices (tuple of ints): The columns, by position in
                :attr:`keys`; ``None`` for all.
        """
        raise NotImplementedError

    @property
    def slice(self):
        """Selects rows and columns lazily: ``dataset.slice[rows]`` or
        ``dataset.slice[rows, keys]``, where rows is a slice, a list of
        ints or a list of bools, and keys a name, an int, or a tuple of
        them (a single name gives a dataset of mode ``None``)."""
        from chainer.dataset.tabular import _ops
        return _ops.SliceHelper(self)

    def fetch(self):
        """Returns all the data, as columns arranged by :attr:`mode`."""
        return self._arrange(self.get_examples(None, None))

    def _arrange(self, columns):
        if self.mode is tuple:
            return tuple(columns)
        if self.mode is dict:
            return dict(zip(self.keys, columns))
        return columns[0]

    def convert(self, data):
        """Converts fetched data (e.g. for a batch): by default, each column
        becomes an array. See :meth:`with_converter`."""
        if isinstance(data, tuple):
            return tuple(_convert_column(c) for c in data)
        if isinstance(data, dict):
            return {k: _convert_column(c) for k, c in data.items()}
        return _convert_column(data)

    def astuple(self):
        """The same data with mode ``tuple``."""
        from chainer.dataset.tabular import _ops
        return _ops.Mode(self, tuple)

    def asdict(self):
        """The same data with mode ``dict``."""
        from chainer.dataset.tabular import _ops
        return _ops.Mode(self, dict)

    def concat(self, *datasets):
        """Stacks datasets with the same keys row-wise."""
        from chainer.dataset.tabular import _ops
        return _ops.Concat(self, *datasets)

    def join(self, *datasets):
        """Puts datasets of the same length and distinct keys side by
        side."""
        from chainer.dataset.tabular import _ops
        return _ops.Join(self, *datasets)

    def transform(self, keys, transform):
        """Applies ``transform`` to each example. It receives the columns
        as arguments (keyword arguments for mode ``dict``) and returns the
        new example: a tuple, a dict or (with one key) a bare value."""
        from chainer.dataset.tabular import _ops
        return _ops.Transform(self, keys, transform, batch=False)

    def transform_batch(self, keys, transform_batch):
        """Like :meth:`transform`, on whole columns (batches) at once."""
        from chainer.dataset.tabular import _ops
        return _ops.Transform(self, keys, transform_batch, batch=True)

    def with_converter(self, converter):
        """The same data, whose :meth:`convert` calls ``converter`` (with
        the columns as arguments, keyword arguments for mode ``dict``)."""
        from chainer.dataset.tabular import _ops
        return _ops.WithConverter(self, converter)

    def get_example(self, i):
        columns = self.get_examples([i], None)
        return self._arrange(tuple(c[0] for c in columns))

    def __getitem__(self, index):
        if isinstance(index, (slice, list, numpy.ndarray)):
            if isinstance(index, slice):
                index = list(range(*index.indices(len(self))))
            elif isinstance(index, numpy.ndarray):
                index = index.tolist()
            columns = self.get_examples(index, None)
            rows = list(zip(*columns)) if columns else []
            return [self._arrange(row) for row in rows]
        return self.get_example(index)

    def __iter__(self):
        return (self.get_example(i) for i in range(len(self)))
