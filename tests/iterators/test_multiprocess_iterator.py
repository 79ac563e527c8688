"""MultiprocessIterator: shared-memory transport, shutdown, errors.

The contract shared with SerialIterator is tested in test_iterators.py.
Each test is bounded by an alarm, so a hang fails instead of blocking.
"""

import _thread
import copy
import gc
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy
import pytest

import chainer
from chainer import iterators, serializers
from chainer.iterators import multiprocess_iterator as mp_module

MPI = iterators.MultiprocessIterator


@pytest.fixture(autouse=True)
def _deadline():
    def expire(signum, frame):
        raise TimeoutError('the test took too long (hang?)')

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def make():
    made = []

    def factory(*args, **kwargs):
        kwargs.setdefault('n_processes', 2)
        it = MPI(*args, **kwargs)
        made.append(it)
        return it

    yield factory
    for it in made:
        it.finalize()


class Arrays:
    """Examples mixing arrays and other values, of a few layouts."""

    def __init__(self, n=7):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return (numpy.full((2, 3), i, numpy.float32).T,  # Fortran order
                {'label': numpy.int32(i), 'name': 'ex%d' % i,
                 'odd': [numpy.arange(i, dtype=numpy.int8)]})


def assert_same_batches(expected, got):
    assert len(expected) == len(got)
    for want_batch, got_batch in zip(expected, got):
        assert len(want_batch) == len(got_batch)
        for want, have in zip(want_batch, got_batch):
            assert type(have) is tuple and type(have[1]) is dict
            numpy.testing.assert_array_equal(have[0], want[0])
            assert have[0].dtype == want[0].dtype
            assert have[0].flags.f_contiguous
            assert have[1]['name'] == want[1]['name']
            assert have[1]['label'] == want[1]['label']
            numpy.testing.assert_array_equal(have[1]['odd'][0],
                                             want[1]['odd'][0])


def test_batches_equal_serial_iterator(make):
    numpy.random.seed(5)
    serial = iterators.SerialIterator(Arrays(), 3)
    expected = [serial.next() for _ in range(7)]
    states = [(serial.epoch, serial.epoch_detail, serial.is_new_epoch)]

    numpy.random.seed(5)
    it = make(Arrays(), 3, n_prefetch=3)
    got = [it.next() for _ in range(7)]
    assert_same_batches(expected, got)
    assert [(it.epoch, it.epoch_detail, it.is_new_epoch)] == states
    # The arrays came through shared memory once it was sized.
    assert it._mem_size > 0 and it._n_shared > 0

    it = make(Arrays(5), 2, repeat=False, shuffle=False, n_prefetch=2)
    assert [[ex[1]['name'] for ex in b] for b in it] == [
        ['ex0', 'ex1'], ['ex2', 'ex3'], ['ex4']]


class Big:
    """1 MiB per example."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return numpy.full((2 ** 18,), i, numpy.float32), i


def check_big(batch):
    for array, i in batch:
        assert array.shape == (2 ** 18,) and array[0] == i == array[-1]


def test_big_examples_go_through_shared_memory(make):
    it = make(Big(), 3, shuffle=False, shared_mem=2 ** 20)
    for _ in range(4):
        check_big(it.next())
    assert (it._n_shared, it._n_piped) == (12, 0)


def test_shared_memory_grows_automatically(make):
    it = make(Big(), 3, shuffle=False, n_prefetch=2)
    for _ in range(6):
        check_big(it.next())
    # Only the batches read before the first measurement were piped.
    assert it._mem_size >= 2 ** 20
    assert it._n_piped <= 6 and it._n_shared == 18 - it._n_piped

    class Growing:
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return numpy.arange(10 ** min(i // 2 + 1, 3), dtype=numpy.float64)

    it = make(Growing(), 2, shuffle=False, repeat=False)
    batches = list(it)
    assert [len(a) for b in batches for a in b] == [10, 10, 100, 100] + [
        1000] * 4
    assert batches[-1][-1][-1] == 999
    # Each of the first three batches made the buffer grow.
    assert (it._n_piped, it._n_shared, it._mem_size) == (6, 2, 8000)


def test_fixed_shared_mem_too_small_falls_back_to_pipes(make):
    it = make(Big(), 2, shuffle=False, shared_mem=1000)
    with pytest.warns(UserWarning, match='shared_mem=1000'):
        check_big(it.next())
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # warned once only
        check_big(it.next())
    assert it._n_shared == 0 and it._n_piped == 4 and it._mem_size == 1000

    it = make(Big(), 2, shuffle=False, shared_mem=0)  # disabled
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        check_big(it.next())
    assert it._n_shared == 0 and it._buffer is None


def test_dtypes_and_layouts_round_trip(make):
    record = numpy.dtype([('a', numpy.int16), ('b', numpy.float64)])
    values = [
        numpy.array([1.5, -2], numpy.float16), numpy.array([True, False]),
        numpy.array([1 + 2j], numpy.complex128), numpy.array(3.0),
        numpy.zeros((0, 4), numpy.float32), numpy.arange(5, dtype=numpy.int8),
        numpy.ones((3, 4))[:, ::2], numpy.zeros(2, record),
        numpy.array([{'k': 1}, None], dtype=object),
    ]

    class Mixed:
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return list(values) + [i]

    it = make(Mixed(), 3, shuffle=False, shared_mem=4096)
    for example in it.next():
        for want, have in zip(values, example):
            assert have.dtype == want.dtype and have.shape == want.shape
            numpy.testing.assert_array_equal(have, want)
            assert have.flags.writeable and have.flags.owndata
    assert it._n_shared == 3 * 7  # all but the empty and object arrays


def test_finalize_stops_workers_and_frees_memory(make):
    it = make(Big(), 3, n_prefetch=2, shared_mem=2 ** 20)
    it.next()
    workers = list(it._pool)
    assert len(workers) == 2 and all(p.is_alive() for p in workers)
    assert it._buffer is not None
    it.finalize()
    assert not any(p.is_alive() for p in workers)
    assert it._pool is None and it._buffer is None and not it._pending
    it.finalize()  # idempotent
    check_big(it.next())  # restarts
    with it:
        workers = list(it._pool)
    assert it._pool is None and not any(p.is_alive() for p in workers)

    it = MPI(Big(), 3, n_processes=2)
    it.next()
    workers = list(it._pool)
    del it
    gc.collect()
    assert not any(p.is_alive() for p in workers)


def test_finalize_does_not_wait_for_big_results_in_flight(make):
    # Workers blocked on sending 1 MiB examples through their pipes.
    it = make(Big(), 3, shuffle=False, shared_mem=0, n_prefetch=3)
    check_big(it.next())
    workers = list(it._pool)
    start = time.monotonic()
    it.finalize()
    assert time.monotonic() - start < 3
    assert not any(p.is_alive() for p in workers)


def test_reset_with_batches_in_flight(make):
    class Slow(Arrays):
        def __getitem__(self, i):
            time.sleep(0.02)
            return super().__getitem__(i)

    it = make(Slow(6), 2, shuffle=False, n_prefetch=3, shared_mem=4096)
    it.next()
    workers = list(it._pool)
    busy = sum(1 for batch, _ in it._pending if batch.remaining)
    assert busy >= 1  # the batch just submitted, at least
    it.reset()  # the batches in flight are dropped, the workers kept
    # Their slots are reused only once their tasks are done writing.
    assert len(it._free_slots) == 3 - busy
    got = [it.next() for _ in range(4)]
    assert [[ex[1]['name'] for ex in b] for b in got] == [
        ['ex0', 'ex1'], ['ex2', 'ex3'], ['ex4', 'ex5'], ['ex0', 'ex1']]
    assert [ex[0][0, 0] for b in got for ex in b] == [0, 1, 2, 3, 4, 5, 0, 1]
    assert it._pool == workers
    # Two arrays per example, one of them empty (not shared) for ex0.
    assert it._n_shared == 5 * 4 - 3 and it._n_piped == 0


def test_indices_keep_their_type(make):
    class Types:
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return type(i).__name__

    it = make(Types(), 2, shuffle=False)
    assert it.next() == ['int', 'int']
    it = make(Types(), 2)
    assert it.next() == ['int64', 'int64']


def test_maxtasksperchild_replaces_workers(make):
    it = make(Arrays(), 2, shuffle=False, maxtasksperchild=2, n_prefetch=2,
              shared_mem=4096)
    seen = set()
    for k in range(6):
        batch = it.next()
        assert [ex[0][0, 0] for ex in batch] == [(2 * k) % 7,
                                                 (2 * k + 1) % 7]
        seen.update(p.pid for p in it._pool)
    assert len(seen) > 2 and len(it._pool) >= 2


def test_worker_killed_while_idle_is_replaced(make):
    it = make(list(range(8)), 2, shuffle=False)
    assert it.next() == [0, 1]
    it._finish(it._pending[0][0])  # let the workers go idle
    victim = it._pool[0]
    os.kill(victim.pid, signal.SIGKILL)
    victim.join()
    assert [it.next() for _ in range(3)] == [[2, 3], [4, 5], [6, 7]]
    assert victim not in it._pool


def test_serialize_resumes_with_arrays(make):
    # (Within the epoch: the next epoch's order is drawn from the global
    # generator, which the prefetching consumes ahead of time.)
    numpy.random.seed(2)
    it = make(Arrays(9), 3, n_prefetch=2)
    it.next()
    saved = serializers.DictionarySerializer()
    it.serialize(saved)
    expected = [it.next() for _ in range(2)]

    numpy.random.seed(7)
    resumed = make(Arrays(9), 3, n_prefetch=2)
    resumed.next()
    resumed.next()
    serializers.NpzDeserializer(dict(saved.target)).load(resumed)
    assert resumed.epoch_detail == pytest.approx(1 / 3)
    assert_same_batches(expected, [resumed.next() for _ in range(2)])
    assert resumed.is_new_epoch and resumed.epoch == 1


def test_copy_continues_with_own_workers(make):
    it = make(list(range(6)), 2, shuffle=False)
    it.next()
    other = copy.copy(it)
    try:
        assert other.next() == [2, 3] and other.current_position == 4
        assert it.next() == [2, 3]
        assert other._pool is not it._pool
    finally:
        other.finalize()
    # a deep copy and an unpickled iterator continue from the public
    # position (not from the batches read ahead), with workers of their own
    for clone in (copy.deepcopy(it), pickle.loads(pickle.dumps(it))):
        try:
            assert (clone.epoch_detail, clone.previous_epoch_detail) == \
                (it.epoch_detail, it.previous_epoch_detail)
            assert clone.next() == [4, 5] and clone.is_new_epoch
            assert clone._pool is not it._pool
        finally:
            clone.finalize()
    assert it.next() == [4, 5]


class Failing:
    def __init__(self, error):
        self.error = error

    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 3:
            if self.error == 'exit':
                os._exit(3)  # the worker dies
            raise self.error
        return numpy.full(4, i)


def test_dataset_error_propagates(make):
    it = make(Failing(ValueError('bad example 3')), 2, shuffle=False,
              n_prefetch=2)
    assert it.next()[1][0] == 1
    with pytest.raises(ValueError, match='bad example 3'):
        it.next()
    assert it.next()[0][0] == 4  # the iterator goes on

    # As in SerialIterator, even SystemExit reaches the caller (and the
    # worker survives it).
    it = make(Failing(SystemExit(4)), 6, shuffle=False, n_processes=1)
    with pytest.raises(SystemExit) as info:
        it.next()
    assert info.value.code == 4
    assert 'in a worker process' in str(info.value.__cause__)
    assert len(it._pool) == 1 and it._pool[0].is_alive()

    class Unpicklable:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return lambda: i

    it = make(Unpicklable(), 2, n_processes=1)
    with pytest.raises(RuntimeError, match='could not send its examples'):
        it.next()


class DiesWhileMarked(Failing):
    """Kills the worker reading example 3 while the marker file exists."""

    def __init__(self, marker):
        super().__init__('exit')
        self.marker = marker

    def __getitem__(self, i):
        if i == 3 and not os.path.exists(self.marker):
            return numpy.full(4, i)
        return super().__getitem__(i)


def test_dead_worker_raises_instead_of_hanging(make, tmp_path):
    marker = str(tmp_path / 'die')
    open(marker, 'w').close()
    it = make(DiesWhileMarked(marker), 2, shuffle=False, n_prefetch=2)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match='died'):
        it.next()
        it.next()
    assert time.monotonic() - start < 20  # no hang (a loaded CI box is slow)
    # (with the poisoned batch prefetched, a dying worker may take any batch
    # in flight down with it: the recovery is tested without the poison)
    os.remove(marker)
    it.reset()
    assert it.next()[1][0] == 1  # new workers
    assert it.next()[1][0] == 3


def test_timeout_warning(make):
    class Slow:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            time.sleep(0.3)
            return i

    it = make(Slow(), 2, shuffle=False, dataset_timeout=0.05)
    with pytest.warns(MPI.TimeoutWarning, match='0.05 seconds'):
        assert it.next() == [0, 1]


def test_options():
    for bad in ({'n_processes': 0}, {'n_prefetch': 0}, {'shared_mem': -1}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            MPI([1], 1, **bad)
    it = MPI(list(range(5)), 2, n_processes=1, shuffle=False,
             maxtasksperchild=1)
    with it:
        assert [it.next() for _ in range(4)] == [[0, 1], [2, 3], [4, 0],
                                                  [1, 2]]
        assert (it.n_processes, it.n_prefetch, it.shared_mem,
                it.dataset_timeout) == (1, 1, None, 30.0)


_EXIT_SCRIPT = """
import numpy
from chainer import iterators
data = [numpy.zeros(5000, 'f')] * 8
kept = iterators.MultiprocessIterator(data, 2, n_processes=2, n_prefetch=2)
kept.next()
dropped = iterators.MultiprocessIterator(data, 2, n_processes=2)
dropped.next()
del dropped
print('done')
"""


def test_interpreter_exit_is_clean():
    # Iterators left running at exit: no hang, no leak warning.
    done = subprocess.run(
        [sys.executable, '-W', 'always', '-c', _EXIT_SCRIPT],
        capture_output=True, text=True, timeout=15)
    assert (done.returncode, done.stdout, done.stderr) == (0, 'done\n', '')


def test_packing_helpers():
    example = (numpy.arange(3.0), {'a': [numpy.ones((2, 2), 'i'), 'x']}, 1)
    assert mp_module._shared_size(example) == 2 * mp_module._ALIGN
    buf = memoryview(bytearray(256))
    packed = mp_module._pack(example, buf, 64)
    assert packed[0] == mp_module._SharedArray(64, numpy.dtype('f8'), (3,),
                                               False)
    assert packed[1]['a'][0].offset == 128 and packed[2] == 1
    unpacked, count = mp_module._unpack(packed, buf)
    assert count == 2 and unpacked[1]['a'][1] == 'x'
    numpy.testing.assert_array_equal(unpacked[1]['a'][0], example[1]['a'][0])


def test_unpicklable_error_and_interruption(make):
    class Odd(Exception):
        def __reduce__(self):
            raise TypeError('no pickling')

    it = make(Failing(Odd('odd 3')), 2, shuffle=False, n_processes=1)
    it.next()
    with pytest.raises(RuntimeError, match="raised .*Odd: odd 3"):
        it.next()

    class Slow(Arrays):
        def __getitem__(self, i):
            time.sleep(0.1)
            return super().__getitem__(i)

    # Ctrl-C while waiting: the batch is lost, nothing else.
    it = make(Slow(6), 2, shuffle=False, n_prefetch=2, shared_mem=4096)
    timer = threading.Timer(0.03, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        it.next()
    timer.join()
    got = [it.next() for _ in range(3)]
    assert [ex[0][0, 0] for b in got for ex in b] == [2, 3, 4, 5, 0, 1]


def test_batch_size_raised_midway(make):
    it = make(Big(), 2, shuffle=False, n_prefetch=2)
    for _ in range(3):
        check_big(it.next())
    it.batch_size = 3  # the slots were sized for 2 examples
    for _ in range(4):
        batch = it.next()
        check_big(batch)
    assert len(batch) == 3 and it._slot_size >= 3 * 2 ** 20


class _TwoArgError(Exception):
    # Pickles, but cannot be rebuilt from its args: cls('message') fails.
    def __init__(self, index, why):
        super().__init__('example {} is {}'.format(index, why))


class _RaisesTwoArgError(chainer.dataset.DatasetMixin):
    def __len__(self):
        return 4

    def get_example(self, i):
        raise _TwoArgError(i, 'broken')


def test_error_that_cannot_be_rebuilt_arrives_by_name_and_message():
    it = iterators.MultiprocessIterator(
        _RaisesTwoArgError(), 2, n_processes=1, shuffle=False)
    try:
        with pytest.raises(RuntimeError) as info:
            it.next()
    finally:
        it.finalize()
    message = str(info.value)
    assert '_TwoArgError' in message
    assert 'is broken' in message
    assert 'in a worker process' in str(info.value.__cause__)
