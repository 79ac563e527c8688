import warnings

import numpy
import pytest

import chainer
from chainer import reporter, serializers


class Observer:
    pass


def test_report_with_observer_and_scope():
    r = reporter.Reporter()
    main, sub = Observer(), Observer()
    r.add_observer('main', main)
    r.add_observers('main/', [('sub', sub)])
    observation = {}
    with r.scope(observation):
        assert reporter.get_current_reporter() is r
        reporter.report({'loss': 1.5}, main)
        reporter.report({'acc': 0.5}, sub)
        reporter.report({'lr': 0.1})
    assert observation == {'main/loss': 1.5, 'main/sub/acc': 0.5, 'lr': 0.1}
    assert r.observation == {}
    with pytest.raises(KeyError, match='not registered'):
        r.report({'x': 1}, Observer())


def test_report_without_reporter_is_noop():
    reporter.report({'a': 1})
    with pytest.raises(IndexError):
        reporter.get_current_reporter()


def test_nested_reporters_and_report_scope():
    outer, inner = reporter.Reporter(), reporter.Reporter()
    with outer:
        with inner:
            assert reporter.get_current_reporter() is inner
        assert reporter.get_current_reporter() is outer
        obs = {}
        with reporter.report_scope(obs):
            reporter.report({'v': 2})
        assert obs == {'v': 2}


def test_reported_variable_is_unchained():
    x = chainer.Variable(numpy.array(2.0, 'f'))
    y = x * 3
    r = reporter.Reporter()
    obs = {}
    with r.scope(obs):
        reporter.report({'y': y})
    assert obs['y'] is not y and obs['y'].creator is None
    assert obs['y'].array is y.array
    with chainer.using_config('keep_graph_on_report', True):
        with r.scope(obs):
            reporter.report({'y': y})
    assert obs['y'] is y


def test_summary():
    s = reporter.Summary()
    s.add(numpy.float32(2))
    s.add(numpy.array(4, 'f'), weight=3)
    s.add(5)
    assert s.compute_mean() == pytest.approx(3.8)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(3.8) and std == pytest.approx(0.9797959)
    # As Chainer: a Variable is summed as a Variable, so the mean is one
    # (the std then fails, NumPy's sqrt on a Variable)
    s.add(chainer.Variable(numpy.array(3.8, numpy.float32)))
    mean = s.compute_mean()
    assert type(mean) is chainer.Variable and mean.dtype == numpy.float32
    assert float(mean.array) == pytest.approx(3.8)
    assert mean.creator.label == '_ * 0.16666666666666666'  # 1 / n
    with pytest.raises(TypeError, match='no callable sqrt method'):
        s.make_statistics()
    with pytest.raises(ZeroDivisionError):
        reporter.Summary().compute_mean()


def test_dict_summary():
    d = reporter.DictSummary()
    d.add({'a': 1.0, 'b': numpy.ones(3), 'c': (2.0, 3),
           'g': chainer.Variable(numpy.array(3.0)),
           'h': (numpy.float64(2), chainer.Variable(numpy.array(2.0)))})
    d.add({'a': 3.0})
    assert d.compute_mean() == {'a': 2.0, 'c': 2.0, 'g': 3.0, 'h': 2.0}
    stats = d.make_statistics()
    assert stats['a'] == 2.0 and stats['a.std'] == 1.0 and 'b' not in stats


def test_summary_serialization_roundtrip(tmp_path):
    d = reporter.DictSummary()
    d.add({'x': 1.0, 'y': (2.0, 0.5)})
    d.add({'x': 3.0})
    path = str(tmp_path / 's.npz')
    serializers.save_npz(path, d)
    loaded = reporter.DictSummary()
    serializers.load_npz(path, loaded)
    assert loaded.make_statistics() == d.make_statistics()
    saved = serializers.DictionarySerializer()
    d.serialize(saved)
    assert saved.target['_summaries/0/_n'] == 2

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        reporter.Summary().serialize(serializers.NpzDeserializer({}))
        reporter.DictSummary().serialize(serializers.NpzDeserializer({}))
    assert [str(x.message) for x in w] == [
        'The previous statistics are not saved.',
        'The names of statistics are not saved.']


def test_dict_summary_weight_must_be_scalar():
    d = reporter.DictSummary()
    d.add({'a': (1.0, 0.5), 'b': (2.0, chainer.Variable(numpy.array(0.3)))})
    for bad in (numpy.array([0.5]), chainer.Variable(numpy.array([0.5]))):
        with pytest.raises(ValueError,
                           match='Given weight to a was not scalar.'):
            d.add({'a': (4.0, bad)})
    assert d.compute_mean() == {'a': 1.0, 'b': 2.0}


def test_dict_summary_old_snapshot_starts_afresh(tmp_path):
    # a file without the names (an older Chainer's) resets the statistics
    d = reporter.DictSummary()
    d.add({'a': 3.0, 'c': 4.0})
    path = str(tmp_path / 'old.npz')
    numpy.savez(path, dummy=0)
    with pytest.warns(UserWarning, match='names of statistics'):
        serializers.load_npz(path, d)
    d.add({'a': 9.0})
    assert d.compute_mean() == {'a': 9.0}


def test_summary_squares_float16_and_float32_values_in_float64():
    # as NumPy 1 made 1 * value float64 for Chainer: exact squares
    s = chainer.reporter.DictSummary()
    s.add({'a': numpy.float16(0.1),
           'b': chainer.Variable(numpy.array(0.3, numpy.float16))})
    s.add({'a': numpy.float16(0.2), 'b': numpy.array(0.25, numpy.float16)})
    stats = s.make_statistics()
    assert float(stats['a']) == 0.14996337890625
    assert float(stats['a.std']) == 0.04998779296875
    assert float(stats['b.std']) == 0.0250244140625
    assert stats['a.std'].dtype == numpy.float64
    t = chainer.reporter.Summary()
    t.add(numpy.float32(0.1))
    t.add(numpy.float32(0.7), weight=0.5)
    mean, std = t.make_statistics()
    x = [float(numpy.float32(0.1)), float(numpy.float32(0.7))]
    assert mean == (x[0] + 0.5 * x[1]) / 1.5
    assert std == numpy.sqrt((x[0] ** 2 + 0.5 * x[1] * x[1]) / 1.5 -
                             mean * mean)


def test_with_reporter_gives_none():
    reporter = chainer.Reporter()
    with reporter as entered:
        assert entered is None   # as in Chainer
        assert chainer.get_current_reporter() is reporter
