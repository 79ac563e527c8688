"""transform() and transform_batch(): new columns computed from a
dataset's, example by example or batch by batch."""

from chainer.dataset.tabular import _view


_UNKNOWN = object()


class _TransformBase(_view._View):
    """The transform's output sets the mode, on first use; then it must
    keep it."""

    _mode = _UNKNOWN

    def __init__(self, dataset, keys, transform):
        super().__init__(dataset)
        self._keys = keys if isinstance(keys, tuple) else (keys,)
        self._transform = transform

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is _UNKNOWN:
            self.get_examples([0], None)
        return self._mode

    def _call(self, values):
        dataset = self._dataset
        if dataset.mode is dict:
            return self._transform(**dict(zip(dataset.keys, values)))
        return self._transform(*values)

    def _as_tuple(self, output, name):
        """``output`` (a tuple, a dict or a value) as a tuple in key order;
        checks that its mode is the one of the previous outputs."""
        if isinstance(output, tuple):
            mode = tuple
        elif isinstance(output, dict):
            mode = dict
            output = tuple(output[key] for key in self._keys)
        else:
            mode = None
            output = (output,)
        if self._mode is _UNKNOWN:
            self._mode = mode
        elif mode is not self._mode:
            raise ValueError('{} must not change its return type: it returned '
                             '{} after {}'.format(name, _name(mode),
                                                  _name(self._mode)))
        return output


class _Transform(_TransformBase):

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            key_indices = range(len(self._keys))
        columns = tuple([] for _ in key_indices)
        for values in zip(*self._dataset.get_examples(indices, None)):
            output = self._as_tuple(self._call(values), 'transform')
            for column, k in zip(columns, key_indices):
                column.append(output[k])
        return columns


class _TransformBatch(_TransformBase):

    def get_examples(self, indices, key_indices):
        if indices is None:
            n = len(self)
        elif isinstance(indices, slice):
            n = len(range(*indices.indices(len(self))))
        else:
            n = len(indices)
        output = self._as_tuple(
            self._call(self._dataset.get_examples(indices, None)),
            'transform_batch')
        if any(len(column) != n for column in output):
            raise ValueError(
                'transform_batch must not change the length of data: {} rows '
                'in, {} out'.format(n, [len(column) for column in output]))
        if key_indices is None:
            return output
        return tuple(output[k] for k in key_indices)


def _name(mode):
    return 'a bare value' if mode is None else mode.__name__
