import contextlib
import io
import warnings

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import training
from chainer.training import extensions


def _model():
    return L.Classifier(L.Linear(
        3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32)))


def test_evaluate_means_and_prefix(tiny_data):
    data = tiny_data(8)
    model = _model()
    it = chainer.iterators.SerialIterator(data, 3, repeat=False,
                                          shuffle=False)
    ev = extensions.Evaluator(it, model)
    assert (ev.trigger, ev.default_name, ev.priority) == \
        ((1, 'epoch'), 'validation', 300)
    train_flags = []
    model.predictor.forward = _spy(model.predictor.forward, train_flags)
    result = ev()
    assert sorted(result) == ['main/accuracy', 'main/loss']
    # the mean of the per-batch losses
    x, t = chainer.dataset.concat_examples(data)
    with chainer.no_backprop_mode():
        losses = [float(model(x[i:i + 3], t[i:i + 3]).array)
                  for i in (0, 3, 6)]
    numpy.testing.assert_allclose(float(result['main/loss']),
                                  numpy.mean(losses), rtol=1e-6)
    assert train_flags[:3] == [False] * 3
    # a second call sweeps the data again
    numpy.testing.assert_allclose(float(ev()['main/loss']),
                                  float(result['main/loss']))
    assert ev.get_iterator('main') is it and ev.get_target('main') is model
    assert ev.get_all_iterators() == {'main': it}
    assert ev.get_all_targets() == {'main': model}


def _spy(forward, flags):
    def wrapped(*args):
        flags.append(chainer.config.train)
        return forward(*args)
    return wrapped


def test_in_trainer(tiny_trainer, tiny_data):
    t = tiny_trainer(stop=(2, 'epoch'))
    model = t.updater.get_optimizer('main').target
    it = chainer.iterators.SerialIterator(tiny_data(8), 4, repeat=False,
                                          shuffle=False)
    calls = []
    t.extend(extensions.Evaluator(it, model,
                                  eval_hook=lambda e: calls.append(e)))
    log = extensions.LogReport()
    t.extend(log)
    t.run()
    assert len(calls) == 2
    assert 'validation/main/loss' in log.log[0]
    assert 'validation/main/accuracy' in log.log[1]


def test_eval_func_dict_target_and_progress_bar(tiny_data):
    data = tiny_data(8)
    model = _model()
    seen = []

    def eval_func(x, t):
        seen.append(x.shape)
        chainer.report({'n': float(len(x))}, model)
    it = chainer.iterators.SerialIterator(data, 3, repeat=False,
                                          shuffle=False)
    ev = extensions.Evaluator(it, {'main': model}, eval_func=eval_func,
                              progress_bar=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        result = ev()
    assert seen == [(3, 3), (3, 3), (2, 3)]
    assert float(result['main/n']) == pytest.approx(8 / 3)
    text = buf.getvalue()
    assert text.startswith(
        '\x1b[Jvalidation [' + '#' * 18 + '.' * 32 + '] 37.50%\n'
        '         3 / 8 iterations\n'
        '       inf iters/sec. Estimated time to finish: 0:00:00.\n'
        '\x1b[3A')
    assert text.endswith('\x1b[3A\x1b[J')
    assert '] 100.00%\n' in text


def test_warnings_and_errors(tiny_data):
    it = chainer.iterators.SerialIterator(tiny_data(8), 3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        extensions.Evaluator(it, _model())
    assert any('repeat' in str(x.message) for x in w)
    with pytest.raises(TypeError, match='foo'):
        extensions.Evaluator(it, _model(), foo=1)


def test_training_name_is_prefix(tiny_data):
    ev = extensions.Evaluator(
        chainer.iterators.SerialIterator(tiny_data(4), 2, repeat=False),
        _model())
    ev.name = 'val'
    assert sorted(ev()) == ['val/main/accuracy', 'val/main/loss']
    assert isinstance(training.Extension, type)
