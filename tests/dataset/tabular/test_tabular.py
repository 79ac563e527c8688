import numpy
import pytest

from chainer.dataset import TabularDataset
from chainer.dataset.tabular import DelegateDataset, from_data


def _dict():
    return from_data({'a': numpy.arange(3), 'b': [5, 6, 7]})


def test_from_data_modes():
    t = from_data((numpy.arange(4), [10, 11, 12, 13]))
    assert t.mode is tuple and len(t) == 4 and t[1] == (1, 11)
    assert t[0:2] == [(0, 10), (1, 11)] and len(t.keys) == 2
    d = _dict()
    assert d.mode is dict and d.keys == ('a', 'b') and d[0] == {'a': 0, 'b': 5}
    s = from_data(numpy.arange(3))
    assert s.mode is None and s[1] == 1 and list(s) == [0, 1, 2]
    c = from_data(('x', lambda i: i * 2), size=3)
    assert c.keys == ('x',) and c.fetch() == [0, 2, 4]
    with pytest.raises(ValueError, match='different lengths'):
        from_data(([1], [1, 2]))
    with pytest.raises(ValueError, match='size'):
        from_data(lambda i: i)


def test_fetch_convert_and_get_examples():
    d = _dict()
    fetched = d.fetch()
    assert fetched['b'] == [5, 6, 7]
    converted = d.convert(fetched)
    assert isinstance(converted['b'], numpy.ndarray)
    a, b = d.get_examples([0, 1], None)
    assert a.tolist() == [0, 1] and b == [5, 6]
    assert d.get_examples(None, [1]) == ([5, 6, 7],)


def test_slice():
    d = _dict()
    assert d.slice[1:, 'b'][0] == 6 and d.slice[1:, 'b'].mode is None
    assert d.slice[[0, 2], ('b',)].fetch() == {'b': [5, 7]}
    assert d.slice[[True, False, True]].fetch()['b'] == [5, 7]
    assert d.slice[:, 1].keys == ('b',)
    assert d.slice[[-1]].fetch()['b'] == [7]
    assert d.slice[::-1].slice[[0], 'a'].fetch().tolist() == [2]
    with pytest.raises(KeyError, match='z does not exist'):
        d.slice[:, 'z']
    with pytest.raises(TypeError):
        d.slice[1]


def test_concat_join():
    d = _dict()
    c = d.concat(d)
    assert len(c) == 6 and c.fetch()['b'] == [5, 6, 7, 5, 6, 7]
    assert c[4] == {'a': 1, 'b': 6}
    j = d.join(from_data({'c': [1, 2, 3]}))
    assert j.keys == ('a', 'b', 'c') and j[2] == {'a': 2, 'b': 7, 'c': 3}
    with pytest.raises(ValueError, match='same keys'):
        d.concat(from_data({'z': [1]}))
    with pytest.raises(ValueError, match='unique'):
        d.join(d)


def test_transforms():
    d = _dict()
    t = d.transform(('s',), lambda a, b: a + b)
    assert t.mode is None and t[1] == 7
    t = d.transform(('s', 'p'), lambda a, b: {'s': a + b, 'p': a * b})
    assert t.mode is dict and t[1] == {'s': 7, 'p': 6}
    t = d.transform(('s', 'p'), lambda a, b: (a + b, a * b))
    assert t.mode is tuple and t[2] == (9, 14)
    t = from_data(([1, 2], [3, 4])).transform('s', lambda x, y: x + y)
    assert t.keys == ('s',) and t.fetch() == [4, 6]
    t = d.transform_batch(('s',), lambda a, b: a + numpy.array(b))
    assert t.fetch().tolist() == [5, 7, 9]


def test_with_converter_astuple_asdict_delegate():
    d = _dict()
    w = d.with_converter(lambda a, b: a * 100 + numpy.array(b))
    assert w.convert(w.fetch()).tolist() == [5, 106, 207]
    assert w[1] == {'a': 1, 'b': 6}
    assert d.astuple()[0] == (0, 5) and d.astuple().asdict().mode is dict
    assert DelegateDataset(d)[0] == {'a': 0, 'b': 5}


def test_subclass():
    class Two(TabularDataset):
        def __len__(self):
            return 2

        @property
        def keys(self):
            return ('a',)

        @property
        def mode(self):
            return tuple

        def get_examples(self, indices, key_indices):
            data = [1, 2]
            if indices is None:
                return (data,)
            return ([data[i] for i in indices],)

    m = Two()
    assert m[0] == (1,) and m.fetch() == ([1, 2],) and m[0:2] == [(1,), (2,)]
    assert m[[1]] == [(2,)]
