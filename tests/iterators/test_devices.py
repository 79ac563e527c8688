"""The iterators feeding the GPU converters: batches arrive on the device
with the values and dtypes that NumPy gets (marked gpu: the ``gpu_device``
fixture)."""

import numpy
import pytest

import chainer
from chainer import iterators
from chainer.dataset import convert

ITERATORS = {
    'serial': lambda data: iterators.SerialIterator(data, 4, shuffle=False),
    'multithread': lambda data: iterators.MultithreadIterator(
        data, 4, shuffle=False, n_threads=2),
    'multiprocess': lambda data: iterators.MultiprocessIterator(
        data, 4, shuffle=False, n_processes=2),
}
CONVERTERS = {
    'concat_examples': convert.concat_examples,
    'async': convert.ConcatWithAsyncTransfer(),
}


def tuples(n=10):
    rs = numpy.random.RandomState(0)
    return [(rs.rand(3).astype(numpy.float16), numpy.int32(i % 3))
            for i in range(n)]


def dicts(n=10):
    return [{'x': x, 't': t} for x, t in tuples(n)]


def _items(batch):
    return sorted(batch.items()) if isinstance(batch, dict) else \
        list(enumerate(batch))


@pytest.mark.parametrize('data', [tuples, dicts])
@pytest.mark.parametrize('converter', sorted(CONVERTERS))
@pytest.mark.parametrize('kind', sorted(ITERATORS))
def test_batches_on_the_device(kind, converter, data, gpu_device):
    it = ITERATORS[kind](data())
    try:
        for _ in range(3):  # 2.5 epochs: a short batch, then a new epoch
            batch = it.next()
            got = CONVERTERS[converter](batch, gpu_device)
            want = convert.concat_examples(batch)
            for (key, g), (_, w) in zip(_items(got), _items(want)):
                assert gpu_device.is_array_supported(g), key
                assert g.dtype == w.dtype and g.shape == w.shape, key
                numpy.testing.assert_array_equal(
                    chainer.backends.cuda.to_cpu(g), w)
    finally:
        it.finalize()


def test_padding_and_to_device(gpu_device):
    batch = [numpy.arange(n, dtype=numpy.float32) for n in (1, 3, 2)]
    got = convert.concat_examples(batch, gpu_device, padding=-1)
    assert gpu_device.is_array_supported(got)
    numpy.testing.assert_array_equal(
        chainer.backends.cuda.to_cpu(got),
        [[0, -1, -1], [0, 1, 2], [0, 1, -1]])
    x = convert.to_device(gpu_device, numpy.ones(2, numpy.float32))
    assert gpu_device.is_array_supported(x)
