import pytest

from tabular_recorder import Recorder


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_astuple_and_asdict(mode):
    d = Recorder(n=3, mode=mode).with_converter(lambda *a, **k: 'converted')
    for view, want in ((d.astuple(), tuple), (d.asdict(), dict)):
        assert view.mode is want and view.keys == d.keys and len(view) == 3
        assert view.get_examples([1], (0,)) == ([1],)
        assert view.convert(view.fetch()) == 'converted'
    assert d.asdict()[2] == {k: v for k, v in zip(d.keys, (2, 102, 202))}
