import numpy
import pytest

from chainer.dataset.tabular import from_data


def test_one_column():
    d = from_data(numpy.arange(5))
    assert d.mode is None and len(d.keys) == 1 and d[3] == 3
    assert isinstance(d.slice[[1, 3]].fetch(), numpy.ndarray)
    assert d.keys != from_data(numpy.arange(5)).keys
    d = from_data(('a', [4, 5, 6]))
    assert d.keys == ('a',) and d.slice[::-1].fetch() == [6, 5, 4]
    d = from_data(('a', lambda i: i * i), size=4)
    assert d.keys == ('a',) and d.mode is None and d.fetch() == [0, 1, 4, 9]
    assert d[-1] == 9


def test_callable_columns_set_their_mode():
    d = from_data((('a', 'b'), lambda i: (i, -i)), size=3)
    assert d.keys == ('a', 'b') and d.mode is tuple and d[2] == (2, -2)
    d = from_data((('a', 'b'), lambda i: {'b': -i, 'a': i}), size=3)
    assert d.mode is dict and d.slice[[1, 2]].fetch() == {'a': [1, 2], 'b': [-1, -2]}


def test_a_tuple_of_columns():
    d = from_data((numpy.arange(4), ('b', [5, 6, 7, 8]),
                   (('c', 'd'), lambda i: {'c': i, 'd': 2 * i})))
    assert d.mode is tuple and d.keys[1:] == ('b', 'c', 'd')
    out = d.slice[[1, 3]].fetch()
    assert isinstance(out[0], numpy.ndarray) and out[1:] == ([6, 8], [1, 3], [2, 6])


def test_a_dict_of_columns():
    d = from_data({'a': [1, 2], ('b', 'c'): lambda i: (i, i + 1)})
    assert d.mode is dict and d.keys == ('a', 'b', 'c')
    assert d[1] == {'a': 2, 'b': 1, 'c': 2}


def test_errors():
    with pytest.raises(ValueError, match='needs key'):
        from_data(lambda i: i, size=3)
    with pytest.raises(ValueError, match='needs size'):
        from_data(('a', lambda i: i))
    with pytest.raises(ValueError, match='needs size'):
        from_data({'a': lambda i: i, 'b': lambda i: i})
    with pytest.raises(ValueError, match='same length'):
        from_data(([1], [1, 2]))
    with pytest.raises(TypeError, match='not int'):
        from_data(3)
