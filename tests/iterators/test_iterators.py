"""SerialIterator, MultithreadIterator and MultiprocessIterator share the
same contract; each case runs on all three."""

import numpy
import pytest

from chainer import iterators, serializers

KINDS = {
    'serial': lambda *a, **k: iterators.SerialIterator(*a, **k),
    'thread': lambda *a, **k: iterators.MultithreadIterator(
        *a, n_threads=2, **k),
    'process': lambda *a, **k: iterators.MultiprocessIterator(
        *a, n_processes=2, **k),
}


@pytest.fixture(params=list(KINDS))
def make(request):
    made = []

    def factory(*args, **kwargs):
        it = KINDS[request.param](*args, **kwargs)
        made.append(it)
        return it

    yield factory
    for it in made:
        it.finalize()


def test_shuffled_order_matches_chainer(make):
    # Values recorded from Chainer 7.8.1 after numpy.random.seed(0).
    numpy.random.seed(0)
    it = make(list(range(5)), 2)
    got = [(it.next(), it.epoch, it.epoch_detail, it.previous_epoch_detail,
            it.is_new_epoch, it.current_position) for _ in range(6)]
    assert got == [
        ([2, 0], 0, 0.4, 0.0, False, 2), ([1, 3], 0, 0.8, 0.4, False, 4),
        ([4, 0], 1, 1.2, 0.8, True, 1), ([2, 1], 1, 1.6, 1.2, False, 3),
        ([4, 3], 2, 2.0, 1.6, True, 0), ([1, 3], 2, 2.4, 2.0, False, 2)]


def test_no_repeat(make):
    it = make(list(range(5)), 2, repeat=False, shuffle=False)
    assert it.previous_epoch_detail is None and it.epoch_detail == 0.
    assert not it.repeat
    assert list(it) == [[0, 1], [2, 3], [4]]
    with pytest.raises(StopIteration):
        it.next()
    assert (it.epoch, it.current_position, it.is_new_epoch,
            it.epoch_detail) == (1, 0, True, 1.0)
    it.reset()
    assert it.next() == [0, 1] and it.epoch == 0


def test_repeat_wraps_without_shuffle(make):
    it = make(list(range(3)), 2, shuffle=False)
    assert [it.next() for _ in range(3)] == [[0, 1], [2, 0], [1, 2]]
    assert it.epoch == 2 and it.is_new_epoch


def test_order_sampler(make):
    class Reverse(iterators.OrderSampler):
        def __call__(self, order, position):
            return numpy.arange(len(order))[::-1]

    it = make(list(range(4)), 3, repeat=False, order_sampler=Reverse())
    assert list(it) == [[3, 2, 1], [0]]
    seeded = iterators.ShuffleOrderSampler(numpy.random.RandomState(1))
    it = make(list(range(6)), 6, order_sampler=seeded)
    assert sorted(it.next()) == list(range(6))
    with pytest.raises(ValueError, match='shuffle'):
        make([1, 2], 1, shuffle=True, order_sampler=Reverse())

    class Bad(iterators.OrderSampler):
        # each order one longer than the one before
        def __call__(self, order, position):
            return numpy.concatenate([numpy.arange(len(order)), [0]])

    # the first order sets the epoch size (3 here, over 2 examples); a
    # later order of another size is an error, as in Chainer
    it = make([1, 2], 1, order_sampler=Bad())
    with pytest.raises(ValueError, match='size of order'):
        for _ in range(4):
            it.next()


def test_epoch_size_from_order_and_batches_over_epochs(make):
    # values of Chainer 7.8.1
    it = make([1, 2, 3], 2, order_sampler=lambda order, position:
              numpy.repeat(numpy.arange(3), 2))
    got = [(it.next(), it.epoch, it.current_position) for _ in range(4)]
    assert got == [([1, 1], 0, 2), ([2, 2], 0, 4), ([3, 3], 1, 0),
                   ([1, 1], 1, 2)]
    assert it.epoch_detail == pytest.approx(1 + 2 / 6)
    # a batch larger than the epoch spans several epochs
    it = make([1, 2, 3], 7, shuffle=False)
    assert it.next() == [1, 2, 3, 1, 2, 3, 1]
    assert (it.epoch, it.current_position, it.is_new_epoch) == (2, 1, True)
    assert it.next() == [2, 3, 1, 2, 3, 1, 2]
    assert it.epoch_detail == pytest.approx(4 + 2 / 3)
    assert it.previous_epoch_detail == pytest.approx(2 + 1 / 3)


def test_serialize_resumes_same_order(make):
    numpy.random.seed(1)
    it = make(list(range(6)), 2)
    it.next()
    saved = serializers.DictionarySerializer()
    it.serialize(saved)
    target = dict(saved.target)
    # Chainer's keys: MultithreadIterator names its order '_order'
    order_key = getattr(it, '_order_key', 'order')
    assert set(target) == {'current_position', 'epoch', 'is_new_epoch',
                           order_key, 'previous_epoch_detail'}
    expected = [it.next() for _ in range(2)]

    numpy.random.seed(99)
    resumed = make(list(range(6)), 2)
    resumed.next()
    resumed.next()  # some progress, to be overwritten
    serializers.NpzDeserializer(target).load(resumed)
    assert resumed.current_position == 2 and resumed.epoch == 0
    assert resumed.previous_epoch_detail == 0.
    assert resumed.epoch_detail == pytest.approx(1 / 3)
    assert [resumed.next() for _ in range(2)] == expected
    assert resumed.is_new_epoch and resumed.epoch == 1


def test_serialize_chainer_snapshot_without_previous_detail(make):
    # Old snapshots lack previous_epoch_detail: it is estimated.
    target = {'current_position': numpy.array(2), 'epoch': numpy.array(1),
              'is_new_epoch': numpy.array(False)}
    it = make(list(range(4)), 2, shuffle=False)
    serializers.NpzDeserializer(target).load(it)
    assert it.epoch_detail == 1.5 and it.previous_epoch_detail == 1.0
    assert it.next() == [2, 3]


def test_dataset_error_propagates(make):
    class Broken:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            raise KeyError('broken example')

    it = make(Broken(), 2)
    with pytest.raises(KeyError, match='broken example'):
        it.next()


def test_multiprocess_finalize_and_reuse():
    it = iterators.MultiprocessIterator(list(range(6)), 3, n_processes=2,
                                        n_prefetch=2, shuffle=False)
    assert it.next() == [0, 1, 2]
    pool = it._pool
    it.finalize()
    assert it._pool is None and pool is not None
    assert it.next() == [3, 4, 5]  # restarts its workers
    with it:
        pass
    assert it._pool is None
    assert issubclass(iterators.MultiprocessIterator.TimeoutWarning,
                      RuntimeWarning)
    with pytest.raises(ValueError, match='n_processes'):
        iterators.MultiprocessIterator([1], 1, n_processes=0)


def test_dali_iterator_needs_dali():
    try:
        import nvidia.dali  # NOQA
    except ImportError:
        with pytest.raises(ImportError, match='DALI'):
            iterators.DaliIterator(object())


def test_multithread_iterator_writes_chainers_order_key():
    # '_order', written also without shuffling (None), so that Chainer
    # 7.8.1 loads the snapshot; a file with 'order' (ours before) loads too
    it = iterators.MultithreadIterator(list(range(6)), 4, shuffle=False)
    it.next()
    saved = serializers.DictionarySerializer()
    it.serialize(saved)
    it.finalize()
    assert set(saved.target) == {'_order', 'current_position', 'epoch',
                                 'is_new_epoch', 'previous_epoch_detail'}
    assert saved.target['_order'].item() is None  # Chainer's stored None
    numpy.random.seed(0)
    src = iterators.MultithreadIterator(list(range(6)), 4, shuffle=True)
    src.next()
    old = serializers.DictionarySerializer()
    it = iterators.SerialIterator(list(range(6)), 4, shuffle=True)
    it._state = src._state
    it.serialize(old)  # the 'order' key
    dst = iterators.MultithreadIterator(list(range(6)), 4, shuffle=True)
    dst.serialize(serializers.NpzDeserializer(old.target))
    assert dst.current_position == 4
    assert list(dst._state.order) == list(src._state.order)
    src.finalize()
    dst.finalize()
