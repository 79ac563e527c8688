import numpy
import pytest

from tabular_recorder import Recorder


_WHOLE = Recorder(n=15)  # what the concatenation reads as


def _pair(arrays=False):
    a = Recorder(n=10, arrays=arrays)
    b = Recorder(n=5, arrays=arrays, start=10)  # rows 10.. continue a's
    return a, b, a.concat(b)


def test_a_slice_reaches_each_part_as_a_slice_of_its_own_rows():
    a, b, view = _pair()
    assert len(view) == 15 and view.keys == a.keys and view.mode is tuple
    assert view.get_examples(slice(13, 6, -2), None) == _WHOLE.rows([13, 11, 9, 7])
    assert a.calls == [(slice(9, 6, -2), None)]
    assert b.calls == [(slice(3, None, -2), None)]


@pytest.mark.parametrize('indices,sent_a,sent_b', [
    (slice(9, None, -2), slice(9, None, -2), None),
    (slice(3, 13, 2), slice(3, 10, 2), slice(1, 3, 2)),
    (slice(None, None, 3), slice(0, 10, 3), slice(2, 5, 3)),
    (slice(11, None, -3), slice(8, None, -3), slice(1, None, -3)),
    (slice(12, 3, -2), slice(8, 3, -2), slice(2, None, -2)),
    (slice(10, 20), None, slice(0, 5, 1)),
])
def test_slices_split_between_parts(indices, sent_a, sent_b):
    a, b, view = _pair()
    rows = list(range(15))[indices]
    assert view.get_examples(indices, (1,)) == _WHOLE.rows(rows, (1,))
    assert a.calls == ([(sent_a, (1,))] if sent_a else [])
    assert b.calls == ([(sent_b, (1,))] if sent_b else [])


def test_a_list_is_grouped_by_part_in_order():
    a, b, view = _pair()
    rows = [3, 1, 4, 12, 14, 13, 7, 5, -1]
    assert view.get_examples(rows, None) == _WHOLE.rows(rows)
    assert a.calls == [([3, 1, 4, 7, 5], None)]
    assert b.calls == [([2, 4, 3, 4], None)]
    with pytest.raises(IndexError, match='index 15 is out of bounds for dataset with size 15'):
        view.get_examples([15], None)


def test_one_part_passes_its_columns_through_several_make_lists():
    a, b, view = _pair(arrays=True)
    out = view.get_examples([1, 2, 1], None)
    assert isinstance(out[0], numpy.ndarray) and b.calls == []
    out = view.get_examples([1, 12], None)
    assert out[0] == [1, 12] and isinstance(out[0], list)
    out = view.fetch()
    assert a.calls[-1] == (None, None) and b.calls[-1] == (None, None)
    assert out[2] == list(range(200, 215))
    assert view.get_examples([], None) == ([], [], [])


def test_concat_converts_as_the_first_dataset():
    a, b, _ = _pair()
    view = a.with_converter(lambda *columns: 'first').concat(b)
    assert view.convert(view.fetch()) == 'first'
    assert view[12] == (12, 112, 212)


def test_keys_must_match():
    with pytest.raises(ValueError, match='same keys'):
        Recorder().concat(Recorder(keys=('a', 'b')))
    with pytest.raises(ValueError, match='same keys'):
        Recorder().concat(Recorder(keys=('b', 'a', 'c')))
