import inspect

import numpy
import pytest

import chainer
from chainer import training
from chainer.serializers import DictionarySerializer, NpzDeserializer


class _Updater(training.Updater):
    """Counts iterations (4 per epoch); raises at iteration ``fail_at``."""

    def __init__(self, fail_at=None):
        self.iteration = 0
        self.fail_at = fail_at
        self.finalized = 0

    epoch = property(lambda self: self.iteration // 4)
    epoch_detail = property(lambda self: self.iteration / 4)
    previous_epoch_detail = property(lambda self: None)

    def get_all_optimizers(self):
        return {}

    def update(self):
        self.iteration += 1
        if self.iteration == self.fail_at:
            raise ValueError('boom')

    def finalize(self):
        self.finalized += 1

    def serialize(self, serializer):
        self.iteration = serializer('iteration', self.iteration)


def test_public_names():
    for name in ('Trainer', 'Updater', 'StandardUpdater', 'ParallelUpdater',
                 'Extension', 'make_extension', 'IntervalTrigger',
                 'get_trigger', 'extensions', 'triggers', 'updaters', 'util',
                 'updater', 'trigger', 'extension', 'trainer'):
        assert hasattr(training, name), name
    assert (training.PRIORITY_WRITER, training.PRIORITY_EDITOR,
            training.PRIORITY_READER) == (300, 200, 100)
    assert training.updater.StandardUpdater is \
        training.updaters.StandardUpdater


def test_extension_base_and_make_extension():
    class E(training.Extension):
        pass
    e = E()
    assert (e.default_name, E.name, E.trigger, E.priority) == \
        ('E', None, (1, 'iteration'), 100)
    with pytest.raises(NotImplementedError):
        e(None)
    assert str(inspect.signature(training.Extension.finalize)) == '(self)'

    @training.make_extension(trigger=(2, 'epoch'), priority=5)
    def myext(trainer):
        pass
    assert (myext.trigger, myext.priority, myext.default_name) == \
        ((2, 'epoch'), 5, 'myext')
    assert myext.finalize is None and myext.initialize is None
    with pytest.raises(ValueError, match='invoke_before_training'):
        training.make_extension(invoke_before_training=True)
    with pytest.raises(TypeError, match='foo'):
        training.make_extension(foo=1)


def test_extend_names_and_errors(tmp_path):
    t = training.Trainer(_Updater(), (5, 'iteration'), out=str(tmp_path))

    def f(trainer):
        pass
    t.extend(f)
    t.extend(f)
    assert list(t._extensions) == ['f', 'f_1'] and f.name == 'f_1'
    assert t.get_extension('f') is f
    with pytest.raises(ValueError, match='extension nope not found'):
        t.get_extension('nope')
    with pytest.raises(ValueError, match='"training" is prohibited'):
        t.extend(f, name='training')
    with pytest.raises(ValueError, match='invoke_before_training'):
        t.extend(f, invoke_before_training=True)
    with pytest.raises(TypeError, match='foo'):
        t.extend(f, foo=1)

    class NoName:
        def __call__(self, trainer):
            pass
    with pytest.raises(TypeError, match='name is not given'):
        t.extend(NoName())
    with pytest.raises(RuntimeError, match='not been started'):
        t.elapsed_time
    assert t.is_before_training


def test_run_order_priorities_and_triggers(tmp_path):
    t = training.Trainer(_Updater(), (6, 'iteration'), out=str(tmp_path / 'o'))
    calls = []

    def make(tag):
        return lambda trainer: calls.append((tag, trainer.updater.iteration))
    t.extend(make('reader'), name='reader')
    t.extend(make('writer'), name='writer', priority=training.PRIORITY_WRITER)
    t.extend(make('every3'), name='every3', trigger=(3, 'iteration'),
             priority=training.PRIORITY_EDITOR)
    t.extend(make('before'), name='before', trigger=(100, 'iteration'),
             call_before_training=True)
    t.run()
    assert (tmp_path / 'o').is_dir()
    assert calls[0] == ('before', 0)
    assert calls[1:5] == [('writer', 1), ('reader', 1), ('writer', 2),
                          ('reader', 2)]
    assert calls[5:8] == [('writer', 3), ('every3', 3), ('reader', 3)]
    assert len(calls) == 1 + 6 * 2 + 2
    assert t.elapsed_time > 0
    with pytest.raises(RuntimeError, match='multiple times'):
        t.run()


def test_run_error_path(tmp_path, capsys):
    upd = _Updater(fail_at=3)
    t = training.Trainer(upd, (5, 'iteration'), out=str(tmp_path))
    log = []

    @training.make_extension(
        on_error=lambda tr, e, tb: log.append(('on_error', str(e))),
        finalizer=lambda: log.append('finalize'),
        initializer=lambda tr: log.append('init'))
    def g(trainer):
        log.append(trainer.updater.iteration)
    t.extend(g)
    with pytest.raises(ValueError, match='boom'):
        t.run()
    assert log == ['init', 1, 2, ('on_error', 'boom'), 'finalize']
    assert upd.finalized == 1
    err = capsys.readouterr().err
    assert err.startswith('Exception in main training loop: boom\n'
                          'Traceback (most recent call last):\n')
    assert err.endswith('Will finalize trainer extensions and updater '
                        'before reraising the exception.\n')
    # A failed run may be run again (continuing), quietly if asked.
    log.clear()
    t.run(show_loop_exception_msg=False)
    assert log == ['init', 4, 5, 'finalize']
    assert capsys.readouterr().err == ''


def test_observation_and_reporter(tiny_trainer):
    t = tiny_trainer(stop=(2, 'iteration'))
    seen = []
    t.extend(lambda tr: seen.append(sorted(tr.observation)), name='look')
    t.run()
    assert seen == [['main/accuracy', 'main/loss']] * 2
    assert isinstance(t.reporter, chainer.Reporter)


def test_serialize_keys_and_elapsed_time(tiny_trainer):
    t = tiny_trainer(stop=(2, 'iteration'))
    t.extend(training.extensions.LogReport(trigger=(1, 'iteration')))
    t.run()
    s = DictionarySerializer()
    s.save(t)
    keys = list(s.target)
    assert keys[:1] == ['updater/iterator:main/current_position']
    assert 'updater/optimizer:main/t' in keys
    assert 'updater/model:main/predictor/W' in keys
    assert 'updater/iteration' in keys
    assert 'stop_trigger/previous_iteration' in keys
    assert 'extensions/LogReport/_log' in keys
    assert 'extension_triggers/LogReport/previous_iteration' in keys
    assert '_snapshot_elapsed_time' in keys
    assert float(s.target['_snapshot_elapsed_time']) == t.elapsed_time
    # Loading restores the count and the elapsed time
    t2 = tiny_trainer(stop=(4, 'iteration'))
    t2.extend(training.extensions.LogReport(trigger=(1, 'iteration')))
    NpzDeserializer(s.target).load(t2)
    assert t2.updater.iteration == 2
    assert t2._snapshot_elapsed_time == t.elapsed_time
    assert len(t2.get_extension('LogReport').log) == 2


def test_numpy_random_state_is_left_alone(tiny_trainer):
    # As in Chainer 7.8.1: a snapshot holds no global random state, and
    # loading one draws on from where the process stands
    t = tiny_trainer(stop=(1, 'iteration'))
    s = DictionarySerializer()
    s.save(t)
    assert not any('random' in k for k in s.target)
    numpy.random.seed(5)
    expect = numpy.random.rand(3)
    numpy.random.seed(5)
    NpzDeserializer(s.target).load(t)
    assert numpy.array_equal(numpy.random.rand(3), expect)
