"""PlotReport and VariableStatisticsPlot, with matplotlib when it is
installed, else with a small stand-in that records the drawing calls."""

import importlib.util
import json
import sys
import types
import warnings

import numpy
import pytest

import chainer
from chainer.serializers import DictionarySerializer, NpzDeserializer
from chainer.training import extensions
from chainer.training.extensions import _plot

HAVE_MPL = importlib.util.find_spec('matplotlib') is not None


class _Axes:

    def __init__(self, log):
        self.log = log
        self.lines = 0

    def plot(self, xs, ys, **kw):
        self.lines += 1
        self.log.append(('plot', list(xs), list(ys), kw.get('label')))

    def fill_between(self, xs, y1, y2, **kw):
        self.log.append(('fill', list(xs)))

    def has_data(self):
        return self.lines > 0

    def legend(self, *args, **kw):
        return object()

    def __getattr__(self, name):  # set_xlabel, grid, set_title...
        return lambda *a, **k: self.log.append((name,) + a)


class _Figure:

    def __init__(self, figsize=None):
        self.log = []

    def add_subplot(self, *args):
        return _Axes(self.log)

    def tight_layout(self):
        pass

    def savefig(self, path, format=None, **kw):
        with open(path, 'w') as f:
            json.dump(self.log, f, default=float)


@pytest.fixture
def mpl(monkeypatch):
    """'real' when matplotlib is installed, else installs the stand-in."""
    if HAVE_MPL:
        return 'real'
    root = types.ModuleType('matplotlib')
    figure = types.ModuleType('matplotlib.figure')
    figure.Figure = _Figure
    backends = types.ModuleType('matplotlib.backends')
    agg = types.ModuleType('matplotlib.backends.backend_agg')
    agg.FigureCanvasAgg = lambda fig: None
    for name, mod in [('matplotlib', root), ('matplotlib.figure', figure),
                      ('matplotlib.backends', backends),
                      ('matplotlib.backends.backend_agg', agg)]:
        monkeypatch.setitem(sys.modules, name, mod)
    return 'fake'


def _check_image(path, kind):
    data = path.read_bytes()
    if kind == 'real':
        assert data.startswith(b'\x89PNG')
        return None
    return json.loads(data.decode())


def test_plot_report(mpl, tiny_trainer, tmp_path):
    t = tiny_trainer(stop=(3, 'epoch'))
    ext = extensions.PlotReport(['main/loss', 'nothing'], 'epoch',
                                filename='loss.png', marker='o')
    t.extend(ext)
    t.run()
    out = tmp_path / 'result'
    assert [n.name for n in out.iterdir()] == ['loss.png']
    assert [p[0] for p in ext._data['main/loss']] == [1, 2, 3]
    assert ext._data['nothing'] == []
    log = _check_image(out / 'loss.png', mpl)
    if log is not None:
        plots = [e for e in log if e[0] == 'plot']
        assert plots == [['plot', [1, 2, 3],
                          [p[1] for p in ext._data['main/loss']],
                          'main/loss']]
        assert ['set_xlabel', 'epoch'] in log
    s = DictionarySerializer()
    ext.serialize(s)
    assert list(s.target) == ['_plot_loss.png']
    ext2 = extensions.PlotReport(['main/loss', 'nothing'], 'epoch',
                                 filename='loss.png')
    NpzDeserializer(s.target).load(ext2)
    assert ext2._data == ext._data


def test_variable_statistics_plot(mpl, tiny_trainer, tmp_path):
    t = tiny_trainer(stop=(2, 'epoch'))
    model = t.updater.get_optimizer('main').target
    state = numpy.random.get_state()[1].copy()
    ext = extensions.VariableStatisticsPlot(model, max_sample_size=4,
                                            trigger=(1, 'epoch'))
    t.extend(ext)
    t.run()
    # sampling draws no random numbers
    assert numpy.array_equal(numpy.random.get_state()[1], state)
    assert ext._xs == [4, 8]
    assert numpy.asarray(ext._stats['data']).shape == (2, 9 + 2)
    log = _check_image(tmp_path / 'result' / 'statistics.png', mpl)
    if log is not None:
        assert ['set_title', 'data'] in log and ['set_title', 'grad'] in log
        assert sum(e[0] == 'fill' for e in log) == 2 * 4
    v = chainer.Variable(numpy.arange(10, dtype=numpy.float32))
    ext = extensions.VariableStatisticsPlot(v, report_grad=False,
                                            percentile_sigmas=(0, 50, 100))
    numpy.testing.assert_allclose(ext._statistics('data'),
                                  [0, 4.5, 9, 4.5, numpy.std(numpy.arange(10))])
    with pytest.raises(ValueError, match='report_data or report_grad'):
        extensions.VariableStatisticsPlot(v, report_data=False,
                                          report_grad=False)


def test_without_matplotlib(monkeypatch, tiny_trainer, tmp_path):
    monkeypatch.setattr(_plot, 'available', lambda: False)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        ext = extensions.PlotReport('main/loss')
        vsp = extensions.VariableStatisticsPlot(
            chainer.Variable(numpy.ones(2, numpy.float32)))
    assert sum('matplotlib is not installed' in str(x.message)
               for x in w) == 2
    assert not extensions.PlotReport.available()
    t = tiny_trainer(stop=(1, 'epoch'))
    t.extend(ext)
    t.extend(vsp)
    t.run()
    assert ext._data == {'main/loss': []}
    assert list((tmp_path / 'result').iterdir()) == []
    with pytest.raises(TypeError, match='foo'):
        extensions.PlotReport('a', foo=1)


def test_plot_report_called_before_training(mpl, tiny_trainer, tmp_path):
    t = tiny_trainer(stop=(2, 'epoch'))
    model = t.updater.get_optimizer('main').target
    data = t.updater.get_iterator('main').dataset
    t.extend(extensions.Evaluator(chainer.iterators.SerialIterator(
        data, 5, repeat=False, shuffle=False), model),
        call_before_training=True)
    ext = extensions.PlotReport(['main/loss', 'validation/main/loss'],
                                'epoch', filename='loss.png')
    t.extend(ext, call_before_training=True)
    t.run()
    # an epoch-0 point of the evaluation before training, which is not
    # averaged into epoch 1 (values of Chainer 7.8.1's log for this run)
    assert [p[0] for p in ext._data['main/loss']] == [1, 2]
    assert ext._data['validation/main/loss'] == [
        (0, pytest.approx(0.6931471824645996)),
        (1, pytest.approx(0.6841814666986465)),
        (2, pytest.approx(0.6760252863168716))]
