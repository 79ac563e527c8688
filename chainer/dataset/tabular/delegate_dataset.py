"""DelegateDataset: a TabularDataset that forwards to another one."""

from chainer.dataset.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """Forwards ``len``, :attr:`keys`, :attr:`mode` and
    :meth:`get_examples` to ``dataset``: subclass it to wrap a tabular
    dataset and add methods.

    Args:
        dataset (TabularDataset): The wrapped dataset.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)
