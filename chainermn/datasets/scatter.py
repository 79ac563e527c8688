"""Splitting a dataset among the ranks."""

import numpy

import chainer.datasets


class DataSizeError(RuntimeError):
    """A dataset too small to give every rank an example, or a share too
    large to send."""


def _scatter_index(n_total_samples, size, rank, force_equal_length=True):
    """``(begin, end)`` of rank ``rank``'s share of ``n_total_samples``.

    Shares are contiguous. With ``force_equal_length`` every share has
    ``ceil(n / size)`` examples, so consecutive shares may overlap by one;
    otherwise the first ``n % size`` ranks get one example more than the rest.
    """
    if force_equal_length:
        length = -(-n_total_samples // size)
        begin = rank * n_total_samples // size
        return begin, begin + length
    q, r = divmod(n_total_samples, size)
    begin = rank * q + min(rank, r)
    return begin, begin + q + (rank < r)


def _check_size(n_total_samples, comm, root):
    n = comm.bcast_obj(n_total_samples if comm.rank == root else None, root=root)
    if n < comm.size:
        raise DataSizeError('cannot scatter {} examples among {} ranks: every rank '
                            'needs at least one'.format(n, comm.size))
    return n


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """This rank's ``(begin, end)`` share of ``n_total_samples`` examples, as
    :func:`scatter_dataset` splits them (``n_total_samples`` counts on
    ``root``). Raises :class:`DataSizeError` on every rank when there are
    fewer examples than ranks."""
    n = _check_size(n_total_samples, comm, root)
    return _scatter_index(n, comm.size, comm.rank, force_equal_length)


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=256 * 1024 * 1024, *, force_equal_length=True):
    """Splits the dataset of rank ``root`` among all ranks.

    Each rank gets a :class:`chainer.datasets.SubDataset` of contiguous
    examples (of a random permutation when ``shuffle``, drawn with ``seed``).
    With ``force_equal_length`` (the default) every share has
    ``ceil(len(dataset) / size)`` examples, neighbouring shares overlapping
    where the length does not divide, so that every rank runs as many
    iterations an epoch. ``dataset`` is only read on ``root`` (the others may
    pass None); each share's examples travel pickled. A dataset with fewer
    examples than ranks raises :class:`DataSizeError` on every rank.
    """
    n = _check_size(len(dataset) if comm.rank == root else None, comm, root)
    if comm.rank == root:
        order = numpy.random.RandomState(seed).permutation(n) if shuffle else None
        for rank in range(comm.size):
            begin, end = _scatter_index(n, comm.size, rank, force_equal_length)
            if rank == root:
                mine = chainer.datasets.SubDataset(dataset, begin, end, order)
            else:
                # Only the share's examples travel, not the whole dataset.
                index = range(begin, end) if order is None else order[begin:end]
                comm.send_obj([dataset[int(i)] for i in index], dest=rank)
        return mine
    examples = comm.recv_obj(source=root)
    return chainer.datasets.SubDataset(examples, 0, len(examples))
