import pytest

from tabular_recorder import Recorder


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_the_converter_gets_the_fetched_columns(mode):
    d = Recorder(n=2, mode=mode)
    got = []
    view = d.with_converter(lambda *args, **kwargs: got.append((args, kwargs)))
    assert view.mode is mode and view.keys == d.keys
    assert view.get_examples(None, None) == d.get_examples(None, None)
    view.convert(view.fetch())
    columns = ([0, 1], [100, 101], [200, 201])
    assert got == [{tuple: (columns, {}), None: ((columns[0],), {}),
                    dict: ((), dict(zip('abc', columns)))}[mode]]
