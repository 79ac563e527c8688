"""join(): datasets of the same length, their columns side by side."""

from chainer.dataset.tabular import tabular_dataset


class _Join(tabular_dataset.TabularDataset):

    def __init__(self, *datasets):
        seen = set()
        for dataset in datasets:
            if len(dataset) != len(datasets[0]):
                raise ValueError('All datasets must have the same length')
            if seen.intersection(dataset.keys):
                raise ValueError('All keys must be unique among all datasets')
            seen.update(dataset.keys)
        self._datasets = datasets

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return tuple(key for dataset in self._datasets for key in dataset.keys)

    @property
    def mode(self):
        for dataset in self._datasets:
            if dataset.mode is not None:
                return dataset.mode
        return tuple

    def convert(self, data):
        return self._datasets[0].convert(data)

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            return tuple(column for dataset in self._datasets
                         for column in dataset.get_examples(indices, None))
        columns = {}  # key index -> column
        offset = 0
        for dataset in self._datasets:
            n = len(dataset.keys)
            # this dataset's keys among those asked, each once, in order
            own = tuple(dict.fromkeys(
                k - offset for k in key_indices if offset <= k < offset + n))
            if own:
                output = dataset.get_examples(indices, own)
                columns.update(zip((offset + k for k in own), output))
            offset += n
        return tuple(columns[k] for k in key_indices)
