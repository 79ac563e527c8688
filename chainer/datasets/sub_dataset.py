"""SubDataset and the dataset splitting helpers."""

import numbers

import numpy

from chainer.dataset import dataset_mixin


class SubDataset(dataset_mixin.DatasetMixin):
    """The examples ``start`` to ``finish - 1`` of a base dataset.

    Args:
        dataset: The base dataset.
        start (int): The first index (inclusive).
        finish (int): The last index (exclusive).
        order (sequence of ints): If given, a permutation of the base
            dataset's indices: the sub dataset's ``i``-th example is
            ``dataset[order[start + i]]``.
    """

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset):
            raise ValueError('subset overruns the base dataset.')
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        if order is not None and len(order) != len(dataset):
            raise ValueError(
                'order option must have the same length as the base '
                'dataset: len(order) = {} while len(dataset) = {}'.format(
                    len(order), len(dataset)))
        self._order = order

    def __len__(self):
        return self._size

    def get_example(self, i):
        if i >= 0:
            if i >= self._size:
                raise IndexError('dataset index out of range')
            index = self._start + i
        else:
            if i < -self._size:
                raise IndexError('dataset index out of range')
            index = self._finish + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def split_dataset(dataset, split_at, order=None):
    """Splits a dataset into two :class:`SubDataset` objects.

    Args:
        dataset: The dataset.
        split_at (int): The size of the first part.
        order (sequence of ints): An optional permutation of the indices.

    Returns:
        tuple: ``(dataset[:split_at], dataset[split_at:])`` as SubDatasets.

    >>> from chainer.datasets import split_dataset
    >>> a, b = split_dataset(list(range(5)), 2)
    >>> list(a), list(b)
    ([0, 1], [2, 3, 4])
    """
    if not isinstance(split_at, (numbers.Integral, numpy.integer)) or \
            isinstance(split_at, bool):
        raise TypeError('split_at must be int, got {} instead'.format(
            type(split_at)))
    n = len(dataset)
    if split_at < 0:
        raise ValueError('split_at must be non-negative')
    if split_at > n:
        raise ValueError('split_at exceeds the dataset size')
    return (SubDataset(dataset, 0, split_at, order),
            SubDataset(dataset, split_at, n, order))


def _permutation(n, seed):
    # Like Chainer, a private generator: seed=None seeds it from the OS,
    # and NumPy's global state is left untouched (so the weights drawn
    # after a split are the ones Chainer draws).
    return numpy.random.RandomState(seed).permutation(n)


def split_dataset_random(dataset, first_size, seed=None):
    """Splits a dataset into two parts at random.

    Args:
        dataset: The dataset.
        first_size (int): The size of the first part.
        seed (int): Seed of the permutation; ``None`` seeds a private
            generator from the OS (``numpy.random``'s global state is
            neither used nor advanced).

    Returns:
        tuple: Two SubDatasets.
    """
    return split_dataset(dataset, first_size,
                         _permutation(len(dataset), seed))


def split_dataset_n(dataset, n, order=None):
    """Splits a dataset into ``n`` SubDatasets of ``len(dataset) // n``
    examples each (the remaining examples are in none of them).

    Args:
        dataset: The dataset.
        n (int): The number of parts.
        order (sequence of ints): An optional permutation of the indices.

    Returns:
        list: ``n`` SubDatasets.
    """
    size = len(dataset) // n
    return [SubDataset(dataset, i * size, (i + 1) * size, order)
            for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """Like :func:`split_dataset_n`, with a random order (see
    :func:`split_dataset_random` for ``seed``)."""
    return split_dataset_n(dataset, n, _permutation(len(dataset), seed))


def get_cross_validation_datasets(dataset, n_folds=None, order=None,
                                  **kwargs):
    """Makes ``n_folds`` (train, test) splits for cross validation.

    The examples (in ``order``) are cut into ``n_folds`` nearly equal
    blocks; each split tests on one block and trains on the others. The
    test blocks are taken from the end: the first split tests on the last
    block, with the training part in the original order before it.

    Args:
        dataset: The dataset.
        n_folds (int): The number of folds (``n_fold`` is accepted too).
        order (sequence of ints): An optional permutation of the indices.

    Returns:
        list: ``n_folds`` pairs ``(train, test)`` of SubDatasets.
    """
    if 'n_fold' in kwargs:
        if n_folds is not None:
            raise TypeError('get_cross_validation_datasets: give n_folds '
                            'or n_fold, not both')
        n_folds = kwargs.pop('n_fold')
    if kwargs:
        raise TypeError('get_cross_validation_datasets() got unexpected '
                        'keyword arguments: {}'.format(', '.join(kwargs)))
    if n_folds is None:
        raise TypeError('get_cross_validation_datasets() missing the '
                        'argument n_folds')
    total = len(dataset)
    order = numpy.arange(total) if order is None else numpy.asarray(order)
    edges = [total * i // n_folds for i in range(n_folds + 1)]
    splits = []
    for k in range(n_folds - 1, -1, -1):
        test_size = edges[k + 1] - edges[k]
        splits.append(split_dataset(dataset, total - test_size, order))
        # The test block moves to the front, ready for the next split.
        order = numpy.roll(order, test_size)
    return splits


def get_cross_validation_datasets_random(dataset, n_folds, seed=None,
                                         **kwargs):
    """Like :func:`get_cross_validation_datasets`, with a random order
    (see :func:`split_dataset_random` for ``seed``)."""
    return get_cross_validation_datasets(
        dataset, n_folds, _permutation(len(dataset), seed), **kwargs)
