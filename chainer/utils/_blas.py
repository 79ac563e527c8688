"""NumPy's OpenBLAS driven from chainer-ng's own threads.

A GEMM that OpenBLAS splits over its worker threads leaves those workers
spinning for about 0.1 s afterwards, waiting for the next one: on a machine
of few cores they hold a core that the C loops' helper threads (the
Winograd tiles, im2col, col2im) then share, and those loops gain nothing
from a second thread.  Here a batch of independent products (the positions
of Winograd tiles, the row blocks of one big product) runs instead on
chainer-ng's threads, each asking OpenBLAS for one thread of its own
(``openblas_set_num_threads_local``, OpenBLAS 0.3.27 and later: it changes
nothing for other threads), so that OpenBLAS's workers stay asleep and the
loops around the products can split too.

Where NumPy's BLAS is not such an OpenBLAS (or there is one core), or the
products are few, :func:`run` calls them in turn as before.  A product of
:func:`run` is one BLAS call whichever thread makes it; :func:`matmul`'s
row blocks may round a last bit otherwise than one call over all rows
(OpenBLAS's edge kernels, seen in float64), the same from run to run.
"""

import ctypes
import functools
import os
import queue
import threading

import numpy

from chainer import backend
from chainer.utils import conv_nd

_local_threads = None  # openblas_set_num_threads_local, or None
_threads = 1  # threads for a batch of products (this one included)
_workers = []
_lock = threading.Lock()


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _find():
    """openblas_set_num_threads_local of the OpenBLAS that NumPy loaded
    (the one in NumPy's wheel, ``numpy.libs``, before any other that the
    process has, SciPy's say)."""
    try:
        with open('/proc/self/maps') as f:
            paths = {line.split()[-1] for line in f
                     if 'openblas' in line and '.so' in line}
    except OSError:
        return None
    own = os.path.dirname(os.path.dirname(numpy.__file__))
    for path in sorted(paths, key=lambda p: (
            not p.startswith(os.path.join(own, 'numpy.libs')), p)):
        try:
            f = ctypes.CDLL(path).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        f.restype, f.argtypes = ctypes.c_int, [ctypes.c_int]
        return f
    return None


def _setup():
    global _local_threads, _threads
    _local_threads = _find()
    _threads = min(_cores(), 2) if _local_threads is not None else 1
    # Where the products run here, no BLAS worker spins beside the C
    # loops, which then split too (the Winograd tiles, im2col, col2im,
    # batch normalization, ReLU: see conv_nd.DEFAULT_THREADS).
    if conv_nd._loops is not None:
        conv_nd.DEFAULT_THREADS = _threads
        conv_nd._loops.set_threads(_threads)


def _work(tasks):
    _local_threads(1)
    while True:
        job = tasks.get()
        if job is None:
            return
        fn, done, errors = job
        try:
            fn()
        except BaseException as e:  # handed to the caller
            errors.append(e)
        done.release()


def _forget_helpers():
    # a forked child has none of its parent's threads: it starts its own
    _workers.clear()


if hasattr(os, 'register_at_fork'):
    os.register_at_fork(after_in_child=_forget_helpers)


def _helpers(n):
    with _lock:
        while len(_workers) < n:
            tasks = queue.SimpleQueue()
            t = threading.Thread(target=_work, args=(tasks,), daemon=True,
                                 name='chainer-blas')
            t.start()
            _workers.append(tasks)
    return _workers[:n]


def threads():
    """How many threads :func:`run` spreads products over (1: in turn)."""
    return _threads


def run(parts):
    """Calls each of ``parts`` (functions computing products, with NumPy
    released from the GIL in BLAS), spread over :func:`threads` threads
    that each keep OpenBLAS to one thread; in turn where that is 1."""
    n = min(_threads, len(parts))
    if n <= 1:
        for fn in parts:
            fn()
        return
    helpers = _helpers(n - 1)
    errors = []
    done = threading.Semaphore(0)
    # part k goes to thread k % n; this thread takes its share last
    for k, fn in enumerate(parts):
        if k % n:
            helpers[k % n - 1].put((fn, done, errors))
    previous = _local_threads(1)
    try:
        for fn in parts[::n]:
            fn()
    finally:
        _local_threads(previous)
        for k in range(len(parts)):
            if k % n:
                done.acquire()
    if errors:
        raise errors[0]


# Products smaller than this many multiply-adds run as one NumPy call (in
# the calling thread).
MIN_SPLIT = 1 << 23
# ... and below this many OpenBLAS takes one thread anyway (its
# SMP_THRESHOLD_MIN times GEMM_MULTITHREAD_THRESHOLD, 65536 x 4): NumPy
# alone, without setting the thread count.
SINGLE = 1 << 18


def matmul(a, b, out=None):
    """``matmul(a, b, out=out)`` of two matrices: of NumPy ones, its rows
    (or, for few rows, its columns) split over :func:`threads` threads;
    of others (CuPy's), their module's matmul."""
    if type(a) is not numpy.ndarray or type(b) is not numpy.ndarray:
        return backend.get_array_module(a).matmul(a, b, out=out)
    m, k = a.shape
    n = b.shape[1]
    t = _threads
    work = m * n * k
    if t <= 1 or work < SINGLE or not (
            a.dtype == b.dtype and a.dtype.char in 'fd'):
        return numpy.matmul(a, b, out=out)
    if work < MIN_SPLIT:  # in this thread, waking no BLAS worker
        previous = _local_threads(1)
        try:
            return numpy.matmul(a, b, out=out)
        finally:
            _local_threads(previous)
    if out is None:
        out = numpy.empty((m, n), a.dtype)
    size = m if m >= n else n
    bounds = [size * i // t for i in range(t + 1)]
    parts = []
    for lo, hi in zip(bounds, bounds[1:]):
        if m >= n:
            parts.append(functools.partial(numpy.matmul, a[lo:hi], b,
                                           out=out[lo:hi]))
        else:
            parts.append(functools.partial(numpy.matmul, a, b[:, lo:hi],
                                           out=out[:, lo:hi]))
    run(parts)
    return out


_setup()
