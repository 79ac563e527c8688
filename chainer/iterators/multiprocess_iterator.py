"""MultiprocessIterator: examples read by worker processes, their arrays
handed back through shared memory.

Layout: one shared buffer holds ``n_prefetch`` slots, one per batch in
flight; a slot has ``mem_size`` bytes per example. A worker reads its share
of a batch, copies every NumPy array of the examples into the slot and sends
back only small descriptors (offset, dtype, shape) with the non-array parts;
the main process copies the arrays out and frees the slot. An example that
does not fit travels whole through the worker's pipe; when ``shared_mem``
is None this makes the buffer grow (the workers are restarted on a new one).

The workers are plain processes with a socket pair each, not a
``multiprocessing.Pool``: no lock is shared with them, so stopping one in
the middle of a task can never leave the main process blocked, and a worker
that dies is noticed through its sentinel instead of being waited for.
"""

import collections
import multiprocessing
from multiprocessing import connection
import pickle
import signal
import time
import traceback
import warnings

import numpy

from chainer.iterators import _prefetch

_ALIGN = 64  # every array starts on a cache line

# A NumPy array left in shared memory by a worker.
_SharedArray = collections.namedtuple(
    '_SharedArray', ('offset', 'dtype', 'shape', 'fortran'))


def _context():
    methods = multiprocessing.get_all_start_methods()
    # fork hands the dataset and the buffer to the workers without pickling.
    return multiprocessing.get_context('fork' if 'fork' in methods else None)


def _shareable(x):
    return (type(x) is numpy.ndarray and x.nbytes > 0
            and not x.dtype.hasobject)


def _aligned(n):
    return -(-n // _ALIGN) * _ALIGN


def _map_leaves(x, fn):
    """Rebuilds tuples, lists and dicts, applying ``fn`` to the rest."""
    kind = type(x)
    if kind is tuple or kind is list:
        return kind([_map_leaves(v, fn) for v in x])
    if kind is dict:
        return {k: _map_leaves(v, fn) for k, v in x.items()}
    return fn(x)


def _shared_size(example):
    total = 0

    def add(x):
        nonlocal total
        if _shareable(x):
            total += _aligned(x.nbytes)
        return x

    _map_leaves(example, add)
    return total


def _pack(example, buf, offset):
    def put(x):
        nonlocal offset
        if not _shareable(x):
            return x
        fortran = x.flags.f_contiguous and not x.flags.c_contiguous
        numpy.ndarray(x.shape, x.dtype, buf, offset,
                      order='F' if fortran else 'C')[...] = x
        desc = _SharedArray(offset, x.dtype, x.shape, fortran)
        offset += _aligned(x.nbytes)
        return desc

    return _map_leaves(example, put)


def _unpack(example, buf):
    count = 0

    def get(x):
        nonlocal count
        if type(x) is not _SharedArray:
            return x
        count += 1
        view = numpy.ndarray(x.shape, x.dtype, buf, x.offset,
                             order='F' if x.fortran else 'C')
        return view.copy(order='K')  # the slot is reused: own the data

    return _map_leaves(example, get), count


def _fetch(dataset, buf, indices, offset, limit):
    """Reads examples, packing them into ``[offset, offset + limit)`` of
    the buffer where they fit. Returns the examples, the positions of the
    packed ones, the largest shared size of an example and the number of
    examples with arrays that did not fit."""
    end = offset + limit
    examples, packed, largest, overflow = [], [], 0, 0
    for i in indices:
        example = dataset[i]
        need = _shared_size(example)
        largest = max(largest, need)
        if need and need <= end - offset:
            example = _pack(example, buf, offset)
            offset += need
            packed.append(len(examples))
        elif need:
            overflow += 1
        examples.append(example)
    return examples, packed, largest, overflow


def _worker_main(conn, parent_end, dataset, buffer):
    # Ctrl-C goes to the main process, which then stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent_end.close()  # so that the main process exiting means EOF here
    buf = None if buffer is None else memoryview(buffer).cast('B')
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        task_id, indices, offset, limit = task
        try:
            reply = True, _fetch(dataset, buf, indices, offset, limit)
        except BaseException as e:  # SystemExit too: report, don't die
            reply = False, (_sendable_error(e), traceback.format_exc())
        try:
            try:
                conn.send((task_id,) + reply)
            except (EOFError, OSError):
                raise
            except Exception as e:  # something could not be pickled
                ok, payload = reply
                error = RuntimeError(
                    'MultiprocessIterator: a worker could not send {}: '
                    '{!r}'.format('its examples' if ok else repr(payload[0]),
                                  e))
                conn.send((task_id, False, (error, '' if ok else payload[1])))
        except Exception:
            return  # the main process is gone


def _sendable_error(e):
    """``e``, or, when the main process could not rebuild it from its
    pickle (an exception class whose ``__init__`` wants other arguments
    than its ``args``, say), a RuntimeError naming its type and message."""
    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        kind = type(e)
        return RuntimeError(
            'MultiprocessIterator: the dataset raised {}.{}: {} (the '
            'exception itself could not be sent from the worker)'.format(
                kind.__module__, kind.__qualname__, e))


class _RemoteTraceback(Exception):
    def __str__(self):
        return '\n\n(in a worker process)\n' + self.args[0]


class _Worker:
    __slots__ = ('process', 'conn', 'tasks', 'n_tasks', 'retiring')

    def __init__(self, process, conn):
        self.process = process
        self.conn = conn
        self.tasks = collections.deque()  # ids of the tasks sent, in order
        self.n_tasks = 0
        self.retiring = False


class _Batch:
    """A batch in flight: its chunks as they arrive, then its examples
    (``value``) or the error to raise (``error``)."""

    __slots__ = ('chunks', 'remaining', 'view', 'slot', 'generation',
                 'value', 'error', 'cancelled')

    def __init__(self, n_chunks, view, slot, generation):
        self.chunks = [None] * n_chunks
        self.remaining = n_chunks
        self.view = view  # the buffer its slot is in (kept alive)
        self.slot = slot
        self.generation = generation
        self.value = self.error = None
        self.cancelled = False


class MultiprocessIterator(_prefetch.PrefetchIterator):
    """Makes minibatches with examples read by worker processes.

    Use it when reading or transforming an example is CPU-heavy. Each batch
    is split among the workers, and ``n_prefetch`` batches are read ahead.
    The NumPy arrays in the examples (also inside tuples, lists and dicts)
    come back through shared memory, not through pickling; the rest of an
    example is pickled. The order of the examples, the options and the
    public state are those of :class:`SerialIterator` (the order is drawn in
    the main process, so ``numpy.random.seed`` reproduces it).

    Args:
        dataset: The dataset. On platforms without ``fork`` it must be
            picklable.
        batch_size (int): The number of examples per batch.
        repeat (bool): Loop over the dataset forever.
        shuffle (bool): Random order each epoch (``None``: True unless
            ``order_sampler`` is given).
        n_processes (int): The number of workers (default: the CPU count).
        n_prefetch (int): The number of batches read ahead.
        shared_mem (int): The shared memory, in bytes, for the arrays of one
            example. ``None`` sizes it from the examples seen and grows it
            when an example does not fit. With a fixed size, an example that
            does not fit is sent through a pipe (with a warning); ``0``
            sends everything through pipes.
        order_sampler (callable): An :class:`OrderSampler`.
        dataset_timeout (float): Warn (``MultiprocessIterator.
            TimeoutWarning``) when a batch takes longer than this many
            seconds; ``None`` disables the warning.
        maxtasksperchild (int): Replace a worker after this many tasks
            (a task is a worker's share of one batch).

    An error raised by the dataset in a worker is raised again by
    ``next()``, and so is the death of a worker. Call :meth:`finalize` (or
    use a ``with`` block) to stop the workers and release the shared
    memory; the iterator starts new workers if it is used again.

    >>> from chainer.iterators import MultiprocessIterator
    >>> with MultiprocessIterator([1, 2, 3], 2, repeat=False, shuffle=False,
    ...                           n_processes=1) as it:
    ...     list(it)
    [[1, 2], [3]]
    """

    class TimeoutWarning(RuntimeWarning):
        pass

    _workers = ()
    _tasks = None
    _buffer = None
    _view = None
    _started = False
    _slot_size = 0
    _generation = 0
    _mem_size = 0
    _grow_to = 0
    _warned_small = False
    # Statistics (for tests and tuning): arrays received through shared
    # memory, and examples with arrays that came through pipes.
    _n_shared = 0
    _n_piped = 0

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
        if shared_mem is not None and shared_mem < 0:
            raise ValueError('MultiprocessIterator: shared_mem must be None '
                             'or >= 0, got {}'.format(shared_mem))
        self.n_processes = n_processes or multiprocessing.cpu_count()
        self.n_prefetch = n_prefetch
        self._n_prefetch = n_prefetch
        self.shuffle = shuffle
        self.shared_mem = shared_mem
        self._mem_size = shared_mem or 0
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._reset_resources()
        self._init_common(dataset, batch_size, repeat, shuffle,
                          order_sampler)

    def _reset_resources(self):
        self._workers = []
        self._tasks = {}  # task id -> (batch, chunk position)
        self._next_task = 0
        self._free_slots = []

    @property
    def _pool(self):
        # The worker processes, or None while there are none.
        return [w.process for w in self._workers] or None

    # -- workers and shared memory --------------------------------------

    def _ensure_workers(self):
        ctx = _context()
        if not self._started:
            # A new generation of workers, on a new buffer.
            self._started = True
            self._generation += 1
            self._free_slots = []
            if self._mem_size:
                self._slot_size = self._mem_size * self.batch_size
                self._buffer = ctx.RawArray(
                    'b', self._slot_size * self._n_prefetch)
                self._view = memoryview(self._buffer).cast('B')
                self._free_slots = list(range(self._n_prefetch))
        while sum(not w.retiring for w in self._workers) < self.n_processes:
            parent_end, child_end = ctx.Pipe()
            process = ctx.Process(
                target=_worker_main, daemon=True,
                name='MultiprocessIterator-worker',
                args=(child_end, parent_end, self.dataset, self._buffer))
            process.start()
            child_end.close()
            self._workers.append(_Worker(process, parent_end))

    def _stop(self, reason='the workers were stopped'):
        """Stops the workers at once and releases the buffer; the batches
        still in flight fail with ``reason``."""
        workers, self._workers = self._workers, []
        self._started = False
        for w in workers:
            if w.process.is_alive():
                w.process.terminate()
        for w in workers:
            w.process.join(1)
            if w.process.is_alive():  # it may have handled SIGTERM
                w.process.kill()
                w.process.join()
            w.conn.close()
        if self._tasks:
            for batch, _ in self._tasks.values():
                if not batch.cancelled and batch.remaining:
                    batch.remaining = 0
                    batch.error = RuntimeError(
                        'MultiprocessIterator: ' + reason)
            self._tasks.clear()
        # Batches already read keep the buffer alive until collected.
        self._free_slots = []
        self._view = self._buffer = None

    def _free(self, batch):
        if batch.slot is not None and batch.generation == self._generation \
                and self._buffer is not None:
            self._free_slots.append(batch.slot)
        batch.slot = batch.view = None

    def _receive(self, worker, message):
        task_id, ok, payload = message
        worker.tasks.remove(task_id)
        batch, position = self._tasks.pop(task_id)
        batch.remaining -= 1
        if batch.cancelled:
            if not batch.remaining:
                self._free(batch)
        elif ok:
            batch.chunks[position] = payload
        elif batch.error is None:
            error, remote_traceback = payload
            if remote_traceback:
                error.__cause__ = _RemoteTraceback(remote_traceback)
            batch.error = error

    def _poll(self, timeout):
        """Receives what the workers have sent, waiting up to ``timeout``
        seconds for something; notices workers that have exited."""
        workers = list(self._workers)
        if not workers:
            return
        ready = set(connection.wait(
            [w.conn for w in workers] + [w.process.sentinel for w in workers],
            timeout))
        for w in workers:
            try:
                while w.conn.poll():
                    self._receive(w, w.conn.recv())
            except (EOFError, OSError):
                pass  # it has exited; see below
            if w.process.sentinel not in ready:
                continue
            w.process.join()
            if w.tasks:
                self._stop('a worker process died (exit code {}) while '
                           'reading the dataset'.format(w.process.exitcode))
                return
            w.conn.close()
            self._workers.remove(w)  # retired (or died idle): replaced later

    def _wait_until(self, done):
        start = time.monotonic()
        warned = self.dataset_timeout is None
        while not done() and self._workers:
            # Wake up for the warning; results and deaths wake us anyway.
            self._poll(1. if warned else min(
                1., max(0., start + self.dataset_timeout - time.monotonic())))
            if not warned and \
                    time.monotonic() - start > self.dataset_timeout:
                warned = True
                warnings.warn(
                    'MultiprocessIterator: reading a batch has taken more '
                    'than {} seconds; the dataset may be slow, or a worker '
                    'may be stuck.'.format(self.dataset_timeout),
                    MultiprocessIterator.TimeoutWarning)

    def _grow(self):
        # Workers get the buffer when they start, so a bigger one needs new
        # workers: finish the batches in flight, then restart.
        for batch, _ in self._pending:
            self._finish(batch)
        self._wait_until(lambda: not self._tasks)
        self._stop()
        self._mem_size, self._grow_to = self._grow_to, 0

    # -- the PrefetchIterator protocol ----------------------------------

    def _submit(self, indices):
        if self._grow_to:
            self._grow()
        if self._buffer is not None:
            # Slots still written by the tasks of dropped batches.
            self._wait_until(lambda: self._free_slots)
            if not self._free_slots:
                self._stop()
        self._ensure_workers()
        per_example = 0
        if self._buffer is not None:
            # (Smaller if batch_size has been raised since the start.)
            per_example = min(self._mem_size,
                              self._slot_size // max(1, len(indices)))
        slot = self._free_slots.pop() if per_example else None
        base = 0 if slot is None else slot * self._slot_size
        if indices and type(indices[0]) is not int:
            indices = numpy.asarray(indices)  # compact, same scalar type
        n = max(1, min(self.n_processes, len(indices)))
        size = max(1, -(-len(indices) // n))
        starts = range(0, len(indices), size)
        batch = _Batch(len(starts), self._view if per_example else None,
                       slot, self._generation)
        try:
            for position, start in enumerate(starts):
                chunk = indices[start:start + size]
                task = (chunk, base + start * per_example,
                        len(chunk) * per_example)
                if not self._send(batch, position, task):
                    break
        except BaseException:  # Ctrl-C: a half-sent batch, start afresh
            self._stop('interrupted')
            raise
        return batch

    def _send(self, batch, position, task):
        """Gives a task to the least busy worker; False if the workers had
        to be stopped (the batch then carries the error)."""
        while True:
            self._ensure_workers()
            worker = min((w for w in self._workers if not w.retiring),
                         key=lambda w: len(w.tasks))
            task_id = self._next_task
            try:
                worker.conn.send((task_id,) + task)
            except OSError:  # it has died
                worker.process.join()
                if worker.tasks:
                    reason = ('a worker process died (exit code {}) while '
                              'reading the dataset'.format(
                                  worker.process.exitcode))
                    self._stop(reason)
                    batch.remaining = 0
                    batch.error = RuntimeError(
                        'MultiprocessIterator: ' + reason)
                    return False
                worker.conn.close()
                self._workers.remove(worker)  # it died idle: replace it
                continue
            self._next_task += 1
            self._tasks[task_id] = batch, position
            worker.tasks.append(task_id)
            worker.n_tasks += 1
            if self.maxtasksperchild and \
                    worker.n_tasks >= self.maxtasksperchild:
                worker.retiring = True
                try:
                    worker.conn.send(None)
                except OSError:
                    pass  # it died: _poll notices
                self._ensure_workers()
            return True

    def _finish(self, batch):
        """Waits for a batch and unpacks its examples (or keeps its
        error)."""
        if batch.chunks is None:
            return
        self._wait_until(lambda: not batch.remaining)
        if batch.remaining and batch.error is None:
            batch.error = RuntimeError(
                'MultiprocessIterator: the workers were stopped')
        if batch.error is None:
            examples, largest, overflow = [], 0, 0
            for chunk, packed, chunk_largest, chunk_overflow in batch.chunks:
                for j in packed:
                    chunk[j], count = _unpack(chunk[j], batch.view)
                    self._n_shared += count
                examples += chunk
                largest = max(largest, chunk_largest)
                overflow += chunk_overflow
            batch.value = examples
            self._n_piped += overflow
            if overflow:
                self._too_small(largest)
        batch.chunks = None
        self._free(batch)

    def _too_small(self, largest):
        if self.shared_mem is None:
            # Grow by half at least, so slowly growing examples do not
            # restart the workers at every batch.
            grown = largest if not self._mem_size else max(
                largest, self._mem_size + self._mem_size // 2)
            self._grow_to = max(self._grow_to, _aligned(grown))
        elif self.shared_mem and not self._warned_small:
            self._warned_small = True
            warnings.warn(
                'MultiprocessIterator: shared_mem={} bytes is too small for '
                'an example whose arrays take {} bytes; such examples are '
                'sent through pipes (slower). Raise shared_mem or leave it '
                'None to size it automatically.'.format(
                    self.shared_mem, largest))

    def _collect(self, batch):
        try:
            self._finish(batch)
        except BaseException:  # Ctrl-C: the slot is freed when it arrives
            self._cancel(batch)
            raise
        if batch.error is not None:
            raise batch.error
        return batch.value

    def _cancel(self, batch):
        # Tasks cannot be recalled: their results are dropped on arrival,
        # and their slot is freed after the last one.
        if batch.chunks is not None:
            batch.cancelled = True
            batch.chunks = None
            if not batch.remaining:
                self._free(batch)

    def finalize(self):
        """Stops the worker processes and releases the shared memory (the
        iterator starts new workers if it is used again)."""
        self._discard()
        self._stop()

    # The workers, the shared memory and the batches read ahead stay with
    # this iterator; a copy or an unpickled iterator continues from the
    # public position with workers of its own.
    _RESOURCES = ('_workers', '_tasks', '_next_task', '_free_slots',
                  '_buffer', '_view', '_started', '_pending', '_ahead',
                  '_grow_to', '_n_shared', '_n_piped')

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items()
                if k not in self._RESOURCES}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._reset_resources()
        self._pending = collections.deque()
        self._ahead = self._state

    def __copy__(self):
        other = object.__new__(type(self))
        other.__setstate__(self.__getstate__())
        return other
