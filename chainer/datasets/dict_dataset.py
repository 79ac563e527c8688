"""DictDataset: examples are dicts taken from equal-length datasets."""


class DictDataset:
    """A dataset of dicts: ``dataset[i] == {'x': x[i], 'y': y[i], ...}``.

    Args:
        **datasets: Datasets of equal length, by key.

    An int index gives a dict, a slice a list of dicts; any other index is
    passed to each dataset and gives a dict of their results.
    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError('no datasets are given')
        length = None
        for key, dataset in datasets.items():
            if length is None:
                length = len(dataset)
            elif len(dataset) != length:
                raise ValueError(
                    'dataset length conflicts at "{}"'.format(key))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = {key: dataset[index]
                   for key, dataset in self._datasets.items()}
        if isinstance(index, slice):
            keys = list(batches)
            return [dict(zip(keys, values))
                    for values in zip(*batches.values())]
        return batches

    def __len__(self):
        return self._length
