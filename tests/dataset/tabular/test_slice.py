import numpy
import pytest

from tabular_recorder import Recorder


def test_slices_reach_get_examples_as_slices():
    d = Recorder()
    view = d.slice[3::-2]
    assert len(view) == 2 and view.fetch() == d.rows([3, 1])
    assert d.calls == [(slice(3, None, -2), None)]


def test_slices_compose_into_one_slice():
    d = Recorder(n=20)
    view = d.slice[2:18:3]  # rows 2, 5, 8, 11, 14, 17
    cases = [
        (slice(None, None, -1), slice(17, None, -3), [17, 14, 11, 8, 5, 2]),
        (slice(1, 4), slice(5, 14, 3), [5, 8, 11]),
        (slice(4, 0, -2), slice(14, 2, -6), [14, 8]),
        (slice(10, 12), slice(0, 0), []),
    ]
    for inner, sent, rows in cases:
        d.calls.clear()
        assert view.get_examples(inner, None) == d.rows(rows)
        assert d.calls == [(sent, None)]
    assert view.slice[::-1].slice[1:3].fetch() == d.rows([14, 11])


def test_lists_compose_with_slices_and_lists():
    d = Recorder()
    assert d.slice[1::2].get_examples([0, -1], (0,)) == ([1, 9],)
    assert d.calls[-1] == ([1, 9], (0,))
    assert d.slice[[5, 2, 7]].get_examples(slice(None, None, -1), None) == \
        d.rows([7, 2, 5])
    assert d.calls[-1] == ([7, 2, 5], None)
    assert d.slice[[5, 2, 7]].get_examples([2, 2], (1,)) == ([107, 107],)


@pytest.mark.parametrize('rows,expected', [
    ([3, -2], [3, 8]),
    ([False, 3, True], [0, 3, 1]),  # a mix of ints and bools: all ints
    ([i in (1, 3) for i in range(10)], [1, 3]),
    (numpy.array([4, 0], numpy.int32), [4, 0]),
    (numpy.arange(10) % 4 == 0, [0, 4, 8]),
    ([], []),
    (numpy.array([], numpy.int64), []),
])
def test_row_lists_and_masks(rows, expected):
    d = Recorder()
    view = d.slice[rows]
    assert len(view) == len(expected) and view.fetch() == d.rows(expected)
    assert d.calls == [(expected, None)]


def test_bad_rows_are_refused_at_once():
    d = Recorder()
    # Chainer's words; a negative row is named after adding the length.
    with pytest.raises(IndexError) as info:
        d.slice[[10, 1]]
    assert str(info.value) == 'index 10 is out of bounds for dataset with ' \
        'size 10'
    with pytest.raises(IndexError) as info:
        d.slice[[-11]]
    assert str(info.value) == 'index -1 is out of bounds for dataset with ' \
        'size 10'
    with pytest.raises(ValueError) as info:
        d.slice[[True] * 11]
    assert str(info.value) == 'The number of booleans is different from ' \
        'the length of dataset'
    with pytest.raises(TypeError):
        d.slice[1]
    assert d.calls == []


def test_rows_asked_of_a_view_are_checked_against_it():
    d = Recorder()
    with pytest.raises(IndexError):
        d.slice[:3].get_example(3)
    assert d.slice[:3][-1] == (2, 102, 202)


@pytest.mark.parametrize('keys,names,mode,key_indices', [
    ('c', ('c',), None, (2,)),
    (1, ('b',), None, (1,)),
    (('c',), ('c',), tuple, (2,)),
    ((-1, 'a'), ('c', 'a'), tuple, (2, 0)),
    ((), (), tuple, ()),
])
def test_columns(keys, names, mode, key_indices):
    d = Recorder()
    view = d.slice[:, keys]
    assert view.keys == names and view.mode is mode
    view.get_examples(None, None)
    assert d.calls == [(slice(None), key_indices)]
    if key_indices:
        view.get_examples(None, (0,))
        assert d.calls[-1] == (slice(None), key_indices[:1])


def test_columns_keep_dict_mode_and_make_tuple_of_none():
    assert Recorder(mode=dict).slice[:, ('b', 'a')].mode is dict
    assert Recorder(mode=None, keys=('a',)).slice[:, ('a',)].mode is tuple
    assert Recorder(mode=dict).slice[:, 'b'].mode is None


def test_bad_keys_are_refused_at_once():
    d = Recorder()
    # Chainer's words (sic), a negative key index named as given.
    with pytest.raises(IndexError) as info:
        d.slice[:, 3]
    assert str(info.value) == 'index 3 is out of bounds for keys with size 3'
    with pytest.raises(IndexError) as info:
        d.slice[:, (-4,)]
    assert str(info.value) == 'index -4 is out of bounds for keys with size 3'
    with pytest.raises(KeyError) as info:
        d.slice[:, ('a', 'd')]
    assert info.value.args[0] == 'd does not exists'
    with pytest.raises(KeyError) as info:
        d.slice[:, ['a']]
    assert info.value.args[0] == "['a'] does not exists"


def test_a_slice_converts_as_its_dataset():
    d = Recorder().with_converter(lambda a, b, c: 'converted')
    assert d.slice[1:3, ('a', 'b', 'c')].convert((1, 2, 3)) == 'converted'
