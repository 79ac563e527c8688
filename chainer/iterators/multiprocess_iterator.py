"""MultiprocessIterator: examples read by a pool of worker processes."""

import multiprocessing
import signal
import warnings

from chainer.iterators import _prefetch

_worker_dataset = None


def _init_worker(dataset):
    global _worker_dataset
    # Ctrl-C goes to the main process, which then finalizes the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_dataset = dataset


def _fetch(indices):
    dataset = _worker_dataset
    return [dataset[i] for i in indices]


def _context():
    methods = multiprocessing.get_all_start_methods()
    # fork hands the dataset to the workers without pickling it.
    return multiprocessing.get_context('fork' if 'fork' in methods else None)


class MultiprocessIterator(_prefetch.PrefetchIterator):
    """Makes minibatches with examples read by worker processes.

    Use it when reading or transforming an example is CPU-heavy. Each
    batch is split among the workers; ``n_prefetch`` batches are read ahead.
    The options and the public state are those of :class:`SerialIterator`.

    Args:
        dataset: The dataset. On platforms without ``fork`` it must be
            picklable.
        batch_size (int): The number of examples per batch.
        repeat (bool): Loop over the dataset forever.
        shuffle (bool): Random order each epoch (``None``: True unless
            ``order_sampler`` is given).
        n_processes (int): The number of workers (default: the CPU count).
        n_prefetch (int): The number of batches read ahead.
        shared_mem (int): Accepted for compatibility; examples travel
            through the pool's pipes.
        order_sampler (callable): An :class:`OrderSampler`.
        dataset_timeout (float): Warn (``MultiprocessIterator.
            TimeoutWarning``) when a batch takes longer than this many
            seconds; ``None`` disables the warning.
        maxtasksperchild (int): Restart a worker after this many tasks.

    Call :meth:`finalize` (or use a ``with`` block) to stop the workers.
    """

    class TimeoutWarning(RuntimeWarning):
        pass

    _pool = None

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_processes=None, n_prefetch=1, shared_mem=None,
                 order_sampler=None, dataset_timeout=30.0,
                 maxtasksperchild=None):
        if n_processes is not None and n_processes < 1:
            raise ValueError('MultiprocessIterator: n_processes must be >= '
                             '1, got {}'.format(n_processes))
        if n_prefetch < 1:
            raise ValueError('MultiprocessIterator: n_prefetch must be >= '
                             '1, got {}'.format(n_prefetch))
        self.n_processes = n_processes or multiprocessing.cpu_count()
        self.n_prefetch = n_prefetch
        self._n_prefetch = n_prefetch
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._init_common(dataset, batch_size, repeat, shuffle,
                          order_sampler)

    def _submit(self, indices):
        if self._pool is None:
            self._pool = _context().Pool(
                self.n_processes, _init_worker, (self.dataset,),
                self.maxtasksperchild)
        n = max(1, min(self.n_processes, len(indices)))
        size = -(-len(indices) // n)
        chunks = [indices[i:i + size] for i in range(0, len(indices), size)]
        return self._pool.map_async(_fetch, chunks)

    def _collect(self, result):
        if self.dataset_timeout is not None:
            result.wait(self.dataset_timeout)
            if not result.ready():
                warnings.warn(
                    'Reading a batch has taken more than {} seconds; the '
                    'dataset may be slow, or a worker may be stuck.'.format(
                        self.dataset_timeout),
                    MultiprocessIterator.TimeoutWarning)
        return [example for chunk in result.get() for example in chunk]

    def finalize(self):
        """Stops the worker processes (the iterator restarts them if it is
        used again)."""
        self._discard()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()

    def __getstate__(self):
        raise TypeError('MultiprocessIterator cannot be pickled')
