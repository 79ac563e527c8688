"""A ShuffleOrderSampler given its own RandomState resumes bit for bit: the
iterators keep the generator's state with their position."""

import numpy
import pytest

from chainer import iterators
from chainer import serializer
from chainer import serializers
from chainer.iterators import ShuffleOrderSampler

ITERATORS = [
    iterators.SerialIterator,
    iterators.MultithreadIterator,
    lambda *a, **k: iterators.MultiprocessIterator(*a, n_processes=1, **k),
]


def _close(it):
    if hasattr(it, 'finalize'):
        it.finalize()


@pytest.mark.parametrize('make', ITERATORS)
@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_resume_draws_the_same_orders(make, fmt, tmp_path):
    if fmt == 'hdf5':
        pytest.importorskip('h5py')
    data = list(range(10))
    it = make(data, 3,
              order_sampler=ShuffleOrderSampler(numpy.random.RandomState(0)))
    for _ in range(5):
        it.next()
    path = str(tmp_path / ('it.' + fmt))
    getattr(serializers, 'save_' + fmt)(path, it)
    want = [list(it.next()) for _ in range(12)]
    _close(it)
    it2 = make(data, 3, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(99)))
    getattr(serializers, 'load_' + fmt)(path, it2)
    got = [list(it2.next()) for _ in range(12)]
    _close(it2)
    assert got == want


def test_snapshot_without_generator_state_loads(tmp_path):
    # As Chainer writes them: the iterator's keys only.
    data = list(range(10))
    it = iterators.SerialIterator(data, 3, order_sampler=ShuffleOrderSampler())
    it.next()
    path = str(tmp_path / 'it.npz')
    serializers.save_npz(path, it)
    with numpy.load(path) as f:
        assert not any(k.startswith('order_sampler') for k in f.files)
    random = numpy.random.RandomState(5)
    it2 = iterators.SerialIterator(
        data, 3, order_sampler=ShuffleOrderSampler(random))
    before = random.get_state()[1].copy()
    serializers.load_npz(path, it2)
    assert it2.current_position == 3
    numpy.testing.assert_array_equal(random.get_state()[1], before)



class _FlatSave(serializer.Serializer):
    """A serializer of flat keys only, as some user code writes them: it
    cannot make a child (``__getitem__``), which Chainer's iterators never
    asked for."""

    def __init__(self, target):
        self.target = target

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        self.target[key] = value
        return value


class _FlatLoad(serializer.Deserializer):

    def __init__(self, target):
        self.target = target

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, self.target[key])
            return value
        return self.target[key] if value is None else type(value)(
            self.target[key])


@pytest.mark.parametrize('make', ITERATORS)
def test_flat_key_serializer_keeps_the_position(make):
    data = list(range(10))
    it = make(data, 3,
              order_sampler=ShuffleOrderSampler(numpy.random.RandomState(0)))
    first = [list(it.next()) for _ in range(2)]
    target = {}
    it.serialize(_FlatSave(target))
    _close(it)
    assert target and not any(k.startswith('order_sampler') for k in target)
    it2 = make(data, 3)
    it2.serialize(_FlatLoad(target))
    assert it2.current_position == 6 and it2.epoch == 0
    rest = list(it2.next()) + list(it2.next())
    _close(it2)
    assert sorted(sum(first, []) + rest[:4]) == data
