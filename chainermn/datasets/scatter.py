"""Splitting a dataset among the ranks."""

import numpy

import chainer.datasets


class DataSizeError(RuntimeError):
    """A dataset that cannot be split as asked: fewer examples than ranks
    without ``force_equal_length``."""


def _scatter_index(n_total_samples, size, force_equal_length):
    """``(rank, begin, end)`` of every rank's share of ``n_total_samples``.

    Shares are contiguous. With ``force_equal_length`` every share has
    ``ceil(n / size)`` examples, so consecutive shares may overlap; otherwise
    the first ``n % size`` ranks get one example more than the others.
    """
    if force_equal_length:
        length = -(-n_total_samples // size)
        for rank in range(size):
            begin = min(rank * n_total_samples // size, max(n_total_samples - length, 0))
            yield rank, begin, begin + length
        return
    q, r = divmod(n_total_samples, size)
    for rank in range(size):
        begin = rank * q + min(rank, r)
        yield rank, begin, begin + q + (rank < r)


def _share(n_total_samples, comm, root, force_equal_length):
    """``n_total_samples`` as counted on ``root``, and this rank's
    ``(begin, end)``; the same DataSizeError on every rank when shares would
    be empty on some ranks only."""
    n = comm.bcast_obj(n_total_samples if comm.rank == root else None, root=root)
    if not force_equal_length and n < comm.size:
        raise DataSizeError(
            'cannot split {} examples among {} ranks without force_equal_length: '
            'some ranks would get none, and a collective they skip would wait forever '
            'on the others'.format(n, comm.size))
    for rank, begin, end in _scatter_index(n, comm.size, force_equal_length):
        if rank == comm.rank:
            return n, (begin, end)


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """This rank's ``(begin, end)`` share of ``n_total_samples`` examples
    (counted on ``root``), split as :func:`scatter_dataset` splits them.

    Only the bounds travel, not the data: each rank can then read its own
    share of a dataset it holds itself, as
    ``chainer.datasets.SubDataset(dataset, begin, end)``.
    """
    return _share(n_total_samples, comm, root, force_equal_length)[1]


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=256 * 1024 * 1024, *, force_equal_length=True):
    """Splits the dataset of rank ``root`` among all ranks.

    Each rank gets a :class:`chainer.datasets.SubDataset` of contiguous
    examples (of a random permutation when ``shuffle``, drawn with ``seed``).
    With ``force_equal_length`` (the default) every share has
    ``ceil(len(dataset) / size)`` examples, neighbouring shares overlapping
    where the length does not divide, so that every rank runs as many
    iterations an epoch (a dataset smaller than the number of ranks is
    repeated; an empty one gives empty shares). Without it the shares do not
    overlap and may differ in length by one, for an exact evaluation; then a
    dataset with fewer examples than ranks raises :class:`DataSizeError` on
    every rank. ``dataset`` is only read on ``root`` (the others may pass
    None); each share's examples travel pickled.
    """
    n, (begin, end) = _share(len(dataset) if comm.rank == root else None, comm, root,
                             force_equal_length)
    if comm.rank != root:
        examples = comm.recv_obj(source=root)
        return chainer.datasets.SubDataset(examples, 0, len(examples))
    order = numpy.random.RandomState(seed).permutation(n) if shuffle else None
    for rank, b, e in _scatter_index(n, comm.size, force_equal_length):
        if rank != root:
            # Only the share's examples travel, not the whole dataset.
            index = range(b, e) if order is None else order[b:e]
            comm.send_obj([dataset[int(i)] for i in index], dest=rank)
    return chainer.datasets.SubDataset(dataset, begin, end, order)


def get_n_iterations_for_one_epoch(dataset, local_batch_size, comm):
    """The number of iterations of one epoch over ``dataset`` (this rank's
    share) in batches of ``local_batch_size``, as rank 0 counts it.
    Deprecated, as in Chainer: use epoch triggers. ``comm`` may be a
    ChainerMN or an ``mpi4py`` communicator."""
    n = -(-len(dataset) // local_batch_size)
    return comm.bcast_obj(n) if hasattr(comm, 'bcast_obj') else comm.bcast(n, root=0)


def get_epoch_trigger(n_epochs, dataset, local_batch_size, comm):
    """``(iterations, 'iteration')`` of ``n_epochs`` epochs, counted by
    :func:`get_n_iterations_for_one_epoch`. Deprecated, as in Chainer: use
    ``(n_epochs, 'epoch')``."""
    return n_epochs * get_n_iterations_for_one_epoch(dataset, local_batch_size, comm), \
        'iteration'
