import numpy
import pytest

import chainer
from chainer import dataset
from chainer.dataset import concat_examples, to_device


def test_concat_arrays():
    x = concat_examples([numpy.ones(2, 'f'), numpy.zeros(2, 'f')])
    numpy.testing.assert_array_equal(x, [[1, 1], [0, 0]])
    assert x.dtype == numpy.float32


def test_concat_tuples_and_scalars():
    x, t = concat_examples([(numpy.ones(2, 'f'), numpy.int32(1)),
                            (numpy.zeros(2, 'f'), numpy.int32(2))])
    assert x.shape == (2, 2) and x.dtype == numpy.float32
    numpy.testing.assert_array_equal(t, [1, 2])
    assert t.dtype == numpy.int32
    a, b = concat_examples([(1, 2.5)])
    assert a.tolist() == [1] and b.tolist() == [2.5]


def test_concat_dicts():
    d = concat_examples([{'a': numpy.ones(2), 'b': 3},
                         {'a': numpy.zeros(2), 'b': 4}])
    assert set(d) == {'a', 'b'}
    numpy.testing.assert_array_equal(d['b'], [3, 4])
    assert d['a'].shape == (2, 2)


def test_concat_padding():
    batch = [(numpy.ones(2, 'f'), numpy.array([1, 2])),
             (numpy.zeros(3, 'f'), numpy.array([3]))]
    x, t = concat_examples(batch, padding=-1)
    numpy.testing.assert_array_equal(x, [[1, 1, -1], [0, 0, 0]])
    numpy.testing.assert_array_equal(t, [[1, 2], [3, -1]])
    x, t = concat_examples(batch, padding=(0, -1))
    numpy.testing.assert_array_equal(x, [[1, 1, 0], [0, 0, 0]])
    d = concat_examples([{'a': numpy.ones((1, 2))}, {'a': numpy.ones((2, 1))}],
                        padding={'a': 9})
    numpy.testing.assert_array_equal(d['a'], [[[1, 1], [9, 9]],
                                              [[1, 9], [1, 9]]])


def test_concat_device_and_errors():
    x = concat_examples([numpy.ones(1)], -1)
    assert isinstance(x, numpy.ndarray)
    x = concat_examples([numpy.ones(1)], device='@numpy')
    assert isinstance(x, numpy.ndarray)
    with pytest.raises(ValueError, match='batch is empty'):
        concat_examples([])
    assert isinstance(concat_examples, dataset.Converter)


def test_to_device():
    a = numpy.ones(2)
    assert to_device(None, a) is a
    assert to_device(-1, a) is a
    assert to_device('@numpy', None) is None
    out = to_device(chainer.get_device('@numpy'), [a])
    assert isinstance(out, list) and out[0] is a


def test_converter_decorator_resolves_device():
    seen = []

    @dataset.converter()
    def conv(batch, device=None):
        seen.append(device)
        return batch

    assert isinstance(conv, dataset.Converter)
    assert conv([1], -1) == [1]
    conv([1], device='@numpy')
    conv([1])
    assert isinstance(seen[0], chainer.backend.CpuDevice)
    assert isinstance(seen[1], chainer.backend.CpuDevice)
    assert len(seen) == 3


def test_converter_base_is_abstract():
    with pytest.raises(NotImplementedError):
        dataset.Converter()([1], None)


def test_concat_with_async_transfer_on_cpu():
    conv = dataset.ConcatWithAsyncTransfer()
    x, t = conv([(numpy.ones(2), 1), (numpy.ones(2), 2)])
    assert x.shape == (2, 2)
    numpy.testing.assert_array_equal(t, [1, 2])


def test_ragged_examples_fail_with_chainers_words():
    # Chainer 7.8.1 concatenates the examples: NumPy's concatenate message
    with pytest.raises(ValueError) as e:
        concat_examples([(numpy.zeros(2), 1), (numpy.zeros(3), 2)])
    assert str(e.value) == (
        'all the input array dimensions except for the concatenation axis '
        'must match exactly, but along dimension 1, the array at index 0 '
        'has size 2 and the array at index 1 has size 3')
