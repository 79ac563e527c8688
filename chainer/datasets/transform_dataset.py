"""TransformDataset: applies a function to each example on access."""

from chainer.dataset import dataset_mixin


class TransformDataset(dataset_mixin.DatasetMixin):
    """A dataset whose ``i``-th example is ``transform(dataset[i])``.

    The transform runs lazily, every time an example is read (so random
    augmentation differs between epochs).

    Args:
        dataset: The base dataset.
        transform (callable): Applied to each example.
    """

    def __init__(self, dataset, transform):
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
