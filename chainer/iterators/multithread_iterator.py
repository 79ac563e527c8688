"""MultithreadIterator: examples read by a pool of threads."""

from concurrent import futures

from chainer.iterators import _prefetch


class MultithreadIterator(_prefetch.PrefetchIterator):
    """Makes minibatches with examples read by worker threads.

    Useful when reading an example waits on I/O (image files, for
    instance). The next batch is read while the current one is used. The
    options and the public state are those of :class:`SerialIterator`.

    Args:
        dataset: The dataset.
        batch_size (int): The number of examples per batch.
        repeat (bool): Loop over the dataset forever.
        shuffle (bool): Random order each epoch (``None``: True unless
            ``order_sampler`` is given).
        n_threads (int): The number of worker threads.
        order_sampler (callable): An :class:`OrderSampler`.

    Call :meth:`finalize` (or use a ``with`` block) to stop the threads.
    """

    # Chainer's MultithreadIterator saves its order as '_order' (None
    # without shuffling), so that its snapshots load there too
    _order_key = '_order'

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_threads=1, order_sampler=None):
        if n_threads < 1:
            raise ValueError('MultithreadIterator: n_threads must be >= 1, '
                             'got {}'.format(n_threads))
        self.n_threads = n_threads
        self._pool = None
        self._init_common(dataset, batch_size, repeat, shuffle,
                          order_sampler)

    def _submit(self, indices):
        if self._pool is None:
            self._pool = futures.ThreadPoolExecutor(self.n_threads)
        return [self._pool.submit(self.dataset.__getitem__, i)
                for i in indices]

    def _collect(self, handle):
        return [f.result() for f in handle]

    def _cancel(self, handle):
        for f in handle:
            f.cancel()

    def finalize(self):
        """Stops the worker threads."""
        self._discard()
        pool, self._pool = getattr(self, '_pool', None), None
        if pool is not None:
            pool.shutdown(wait=True)
