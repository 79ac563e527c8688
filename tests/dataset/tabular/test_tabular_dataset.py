import doctest
import importlib

import numpy
import pytest

from tabular_recorder import Recorder


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_fetch_reads_everything_at_once(mode):
    d = Recorder(n=3, mode=mode)
    out = d.fetch()
    assert d.calls == [(None, None)]
    if mode is tuple:
        assert out == ([0, 1, 2], [100, 101, 102], [200, 201, 202])
    elif mode is dict:
        assert out == {'a': [0, 1, 2], 'b': [100, 101, 102],
                       'c': [200, 201, 202]}
    else:
        assert out == [0, 1, 2]


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_get_example_reads_one_row(mode):
    d = Recorder(mode=mode)
    out = d.get_example(3)
    assert d.calls == [([3], None)]
    assert out == {tuple: (3, 103, 203), None: 3,
                   dict: {'a': 3, 'b': 103, 'c': 203}}[mode]


def test_indexing_and_iteration_go_through_get_example():
    d = Recorder(n=4, keys=('a',), mode=None)
    assert d[1] == 1 and d[-1] == 3
    assert d[1:3] == [1, 2] and d[[3, 0]] == [3, 0]
    assert d[numpy.array([2])] == [2]
    assert list(d) == [0, 1, 2, 3]
    assert d.calls[:2] == [([1], None), ([-1], None)]


def test_convert_makes_arrays_and_leaves_arrays_alone():
    d = Recorder(n=2, mode=dict)
    out = d.convert(d.fetch())
    assert isinstance(out['a'], numpy.ndarray) and out['b'].tolist() == [100, 101]
    array = numpy.arange(3)
    assert d.convert(array) is array
    assert d.convert(([], [1.5]))[0].shape == (0,)


@pytest.mark.parametrize('module', [
    'chainer.dataset.tabular.tabular_dataset',
    'chainer.dataset.tabular.from_data',
])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed


def test_chainer_module_layout():
    from chainer.dataset import tabular
    d = Recorder()
    for view, module, name in [
            (d.slice[1:], tabular._slice, '_Slice'),
            (d.concat(d), tabular._concat, '_Concat'),
            (d.join(Recorder(keys=('d',))), tabular._join, '_Join'),
            (d.transform('x', None), tabular._transform, '_Transform'),
            (d.transform_batch('x', None), tabular._transform, '_TransformBatch'),
            (d.with_converter(None), tabular._with_converter, '_WithConverter'),
            (d.astuple(), tabular._asmode, '_Astuple'),
            (d.asdict(), tabular._asmode, '_Asdict')]:
        assert type(view) is getattr(module, name)
    assert type(d.slice) is tabular._slice._SliceHelper
