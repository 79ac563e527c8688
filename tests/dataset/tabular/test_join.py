import pytest

from tabular_recorder import Recorder


def _pair(mode_a=tuple, mode_b=tuple):
    a = Recorder(n=4, mode=mode_a)
    b = Recorder(n=4, keys=('d', 'e'), mode=mode_b)
    return a, b, a.join(b)


def test_keys_and_all_columns():
    a, b, view = _pair()
    assert view.keys == ('a', 'b', 'c', 'd', 'e') and len(view) == 4
    assert view.get_examples([1, 2], None) == a.rows([1, 2]) + b.rows([1, 2])
    assert a.calls == [([1, 2], None)] and b.calls == [([1, 2], None)]


def test_each_dataset_gets_only_its_own_keys():
    a, b, view = _pair()
    assert view.get_examples(None, (4, 0, 4, 1)) == (
        [100, 101, 102, 103], [0, 1, 2, 3], [100, 101, 102, 103],
        [100, 101, 102, 103])
    assert a.calls == [(None, (0, 1))] and b.calls == [(None, (1,))]
    a.calls.clear()
    assert view.get_examples(slice(1, 3), (3,)) == ([1, 2],)
    assert a.calls == [] and b.calls[-1] == (slice(1, 3), (0,))
    assert view.get_examples(None, ()) == ()


@pytest.mark.parametrize('mode_a,mode_b,mode', [
    (tuple, dict, tuple), (dict, tuple, dict), (None, dict, dict),
    (None, None, tuple),
])
def test_mode_is_the_first_one_set(mode_a, mode_b, mode):
    assert _pair(mode_a, mode_b)[2].mode is mode


def test_join_converts_as_the_first_dataset():
    a, b, _ = _pair()
    view = a.with_converter(lambda *columns: len(columns)).join(b)
    assert view.convert(view.fetch()) == 5


def test_lengths_and_keys_must_fit():
    # Chainer's words, which name neither the lengths nor the keys.
    with pytest.raises(ValueError) as info:
        Recorder().join(Recorder(n=5, keys=('d',)))
    assert str(info.value) == 'All datasets must have the same length'
    with pytest.raises(ValueError) as info:
        Recorder().join(Recorder(keys=('a', 'd')))
    assert str(info.value) == 'All keys must be unique among all datasets'
