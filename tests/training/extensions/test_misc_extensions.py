import os
import sys

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.serializers import DictionarySerializer
from chainer.training import extensions


def test_fail_on_nonnumber(tiny_trainer):
    t = tiny_trainer(stop=(4, 'iteration'))
    model = t.updater.get_optimizer('main').target

    def bad(trainer):
        if trainer.updater.iteration == 2:
            model.predictor.W.array[0, 0] = numpy.nan
    t.extend(bad, priority=400)
    t.extend(extensions.FailOnNonNumber())
    with pytest.raises(RuntimeError) as e:
        t.run(show_loop_exception_msg=False)
    assert str(e.value) == ("Kill the process since parameters in optimizer "
                            "'main' diverge. R.I.P.")
    assert t.updater.iteration == 2


def test_micro_average(fake_trainer):
    ext = extensions.MicroAverage('n', 'd', 'ratio', trigger=(2, 'iteration'))
    assert ext.priority == 200
    tr = fake_trainer()
    results = []
    for n, d in [(1, 4), (3, 4), (2, 2), (0, 6)]:
        tr.updater.iteration += 1
        tr.observation = {'n': n, 'd': d}
        ext(tr)
        results.append(tr.observation.get('ratio'))
    assert results == [None, 0.5, None, 0.25]
    s = DictionarySerializer()
    ext.serialize(s)
    assert sorted(s.target) == ['_denominator', '_numerator']


def test_observe_value_and_lr(tiny_trainer):
    ext = extensions.observe_value('foo', lambda tr: 3)
    assert (ext.trigger, ext.priority, ext.default_name) == \
        ((1, 'epoch'), 300, '_observe_value')
    t = tiny_trainer(stop=(1, 'epoch'))
    t.extend(ext, trigger=(1, 'iteration'))
    t.extend(extensions.observe_lr(observation_key='my_lr'),
             trigger=(1, 'iteration'))
    t.run()
    assert t.observation['foo'] == 3 and t.observation['my_lr'] == 0.1
    assert ext.name == '_observe_value'


def test_unchain_variables(tiny_trainer):
    ext = extensions.unchain_variables()
    assert ext.priority == 0 and ext.trigger(None) is True
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = x * 2

    class T:
        observation = {'y': y, 'z': 1.0}
    assert y.creator is not None
    ext(T())
    assert y.creator is None


def test_parameter_statistics(fake_trainer):
    link = L.Linear(3, 2, initialW=numpy.arange(6, dtype=numpy.float32)
                    .reshape(2, 3),
                    initial_bias=numpy.array([0., 1.], numpy.float32))
    link.W.grad = numpy.array([[1, -1, 0], [2, 0, 3]], numpy.float32)
    link.b.grad = None  # skipped (Chainer would fail on it)
    ext = extensions.ParameterStatistics(link, prefix='pre',
                                         trigger=(1, 'iteration'))
    assert (ext.default_name, ext.priority, ext.trigger) == \
        ('parameter_statistics', 300, (1, 'iteration'))
    # module-level functions, as in Chainer (their repr names no class)
    assert {f.__qualname__ for f in ext.default_statistics.values()} == \
        {'<lambda>'}
    tr = fake_trainer()
    tr.updater.iteration = 1
    reporter = chainer.Reporter()
    obs = {}
    with reporter.scope(obs):
        ext(tr)
    # values of Chainer 7.8.1
    expect = {
        'pre/None/W/data/mean': 2.5, 'pre/None/W/data/min': 0.0,
        'pre/None/W/data/max': 5.0, 'pre/None/W/data/std': 1.707825,
        'pre/None/W/data/zeros': 1.0,
        'pre/None/W/data/percentile/0': 0.0065,
        'pre/None/W/data/percentile/3': 2.5,
        'pre/None/W/data/percentile/6': 4.9935,
        'pre/None/W/grad/mean': 0.833333, 'pre/None/W/grad/zeros': 2.0,
        'pre/None/W/grad/percentile/2': -0.2065,
        'pre/None/b/data/percentile/1': 0.0228,
    }
    for k, v in expect.items():
        assert float(obs[k]) == pytest.approx(v, rel=1e-5), k
    assert len(obs) == 2 * 12 + 12  # W data+grad, b data
    assert not any(k.startswith('pre/None/b/grad') for k in obs)

    ext = extensions.ParameterStatistics(
        [link], statistics={'mean': numpy.mean,
                            'two': lambda x: numpy.array([1., 2.])},
        report_grads=False, trigger=(2, 'iteration'))
    obs = {}
    with reporter.scope(obs):
        ext(tr)
    assert obs == {}  # not yet: the trigger has not fired
    tr.updater.iteration = 2
    with reporter.scope(obs):
        ext(tr)
    assert {k: float(v) for k, v in obs.items()} == {
        'None/W/data/mean': 2.5, 'None/W/data/two/0': 1.0,
        'None/W/data/two/1': 2.0, 'None/b/data/mean': 0.5,
        'None/b/data/two/0': 1.0, 'None/b/data/two/1': 2.0}

    link.W.array[0, 0] = numpy.nan
    ext = extensions.ParameterStatistics(
        link, statistics={'mean': numpy.mean}, skip_nan_params=True,
        trigger=(1, 'iteration'), report_grads=False)
    obs = {}
    with reporter.scope(obs):
        ext(tr)
    assert numpy.isnan(obs['None/W/data/mean'])
    assert float(obs['None/b/data/mean']) == 0.5


def test_dump_graph(tiny_trainer, tmp_path):
    ext = extensions.dump_graph('main/loss', filename='g.dot')
    assert extensions.dump_graph is extensions.DumpGraph
    assert ext.default_name == 'dump_graph'
    t = tiny_trainer(stop=(3, 'iteration'))
    t.extend(ext)
    keep = chainer.config.keep_graph_on_report
    t.run()
    assert chainer.config.keep_graph_on_report == keep
    text = (tmp_path / 'result' / 'g.dot').read_text()
    assert text.startswith('digraph graphname{rankdir=TB;')
    for label in ('LinearFunction', 'SoftmaxCrossEntropy',
                  'W: (2, 3), float32', 'b: (2), float32',
                  '(5, 3), float32', '(5), int32'):
        assert 'label="{}"'.format(label) in text
    assert text.count('->') == 7
    s = DictionarySerializer()
    ext.serialize(s)
    assert bool(s.target['_flag_called']) is True
    with pytest.raises(TypeError, match='foo'):
        extensions.DumpGraph('main/loss', foo=1)


def test_dump_graph_renders_png_with_graphviz(tiny_trainer, tmp_path,
                                              monkeypatch):
    from chainer.training.extensions import computational_graph as cg
    assert cg.is_return_code_zero([sys.executable, '-c', 'pass'])
    assert not cg.is_return_code_zero([sys.executable, '-c', 'exit(1)'])
    assert not cg.is_return_code_zero([str(tmp_path / 'no-such-command')])
    # a stand-in for Graphviz's dot: copies its input to the -o file
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    dot = bin_dir / 'dot'
    dot.write_text('#!{}\nimport shutil, sys\nif sys.argv[1:2] != ["-V"]:\n'
                   '    shutil.copy(sys.argv[2], sys.argv[4])\n'.format(
                       sys.executable))
    dot.chmod(0o755)
    monkeypatch.setenv('PATH', str(bin_dir) + os.pathsep +
                       os.environ.get('PATH', ''))
    assert cg.is_graphviz_available()
    t = tiny_trainer(stop=(2, 'iteration'))
    t.extend(extensions.DumpGraph('main/loss', filename='g.dot'))
    t.run()
    out = tmp_path / 'result'
    assert (out / 'g.png').read_text() == (out / 'g.dot').read_text()


def test_variable_statistics_plot_reservoir_and_statistician():
    from chainer.training.extensions import variable_statistics_plot as vsp
    # values of Chainer 7.8.1 (same draws from NumPy's global generator)
    numpy.random.seed(3)
    r = vsp.Reservoir(3, (2,))
    for i in range(10):
        r.add(numpy.full(2, i))
    idxs, data = r.get_data()
    assert r.counter == 10
    assert idxs.tolist() == [0, 5, 9] and idxs.dtype == numpy.int32
    assert data.dtype == numpy.float32 and data[:, 0].tolist() == [0, 5, 9]
    r = vsp.Reservoir(4, (1,))
    r.add(numpy.ones(1), idx=7)
    assert [a.tolist() for a in r.get_data()] == [[7], [[1.0]]]

    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    s = vsp.Statistician(True, True, (0, 50, 100))
    out = s(x, axis=None)
    assert out['mean'].dtype == numpy.float32 and out['mean'] == 5.5
    assert out['std'] == pytest.approx(3.452052593231201)
    assert out['percentile'].tolist() == [0.0, 5.5, 11.0]
    out = s(x, axis=1)
    assert out['mean'].tolist() == [1.5, 5.5, 9.5]
    assert out['percentile'].shape == (3, 3)
    assert vsp.Statistician(False, False, ())(x) == {}
