import numpy
import pytest

from tabular_recorder import Recorder


@pytest.mark.parametrize('in_mode', [tuple, dict])
def test_transform_gets_an_example_and_its_output_sets_the_mode(in_mode):
    seen = []

    def f(*args, **kwargs):
        seen.append((args, kwargs))
        a = args[0] if args else kwargs['a']
        return {'x': a, 'y': -a}

    d = Recorder(n=4, mode=in_mode)
    view = d.transform(('x', 'y'), f)
    assert view.keys == ('x', 'y') and view.mode is dict
    assert view.get_examples([2, 3], (1,)) == ([-2, -3],)
    if in_mode is tuple:
        assert seen[-1] == ((3, 103, 203), {})
    else:
        assert seen[-1] == ((), {'a': 3, 'b': 103, 'c': 203})
    assert view[1] == {'x': 1, 'y': -1}


def test_transform_modes():
    d = Recorder(n=3, keys=('a',), mode=None)
    single = d.transform('x', lambda a: a * 2)
    assert single.keys == ('x',) and single.mode is None
    assert single.fetch() == [0, 2, 4]
    pair = d.transform(('x', 'y'), lambda a: (a, a + 1))
    assert pair.mode is tuple and pair[2] == (2, 3)
    assert d.calls[-1] == ([2], None)


def test_transform_must_keep_its_mode():
    outputs = iter([(1,), 1])
    view = Recorder().transform('x', lambda a, b, c: next(outputs))
    view.get_examples([0], None)
    with pytest.raises(ValueError, match='a bare value after tuple'):
        view.get_examples([0], None)


def test_transform_batch_gets_columns():
    d = Recorder(n=5, arrays=True)
    view = d.transform_batch(('s',), lambda a, b, c: a + b)
    out = view.get_examples(slice(1, 3), None)
    assert d.calls == [(slice(1, 3), None)]
    assert isinstance(out[0], numpy.ndarray) and out[0].tolist() == [102, 104]
    assert view.mode is None


def test_transform_batch_must_keep_the_length_and_mode():
    d = Recorder(n=3)
    view = d.transform_batch('a', lambda a, b, c: a + [0])
    with pytest.raises(ValueError, match='3 rows in'):
        view.get_examples(None, None)
    outputs = iter([{'a': [1]}, ([1],)])
    view = d.transform_batch('a', lambda a, b, c: next(outputs))
    view.get_examples([0], None)
    with pytest.raises(ValueError, match='tuple after dict'):
        view.get_examples([0], None)


def test_transform_converts_as_its_source():
    d = Recorder().with_converter(lambda *columns: 'source')
    assert d.transform('x', lambda a, b, c: a).convert([1]) == 'source'
    assert d.transform_batch('x', lambda a, b, c: a).convert([1]) == 'source'
