"""Every trigger, against sequences checked on Chainer 7.8.1."""

import io
import contextlib

import numpy
import pytest

from chainer.serializers import DictionarySerializer, NpzDeserializer
from chainer.training import triggers as T
from chainer.training import util

VALS = [5, 4, 6, 3, 3, 3, 7, 8, 1, 2, 2, 2]


def _saved(trigger):
    s = DictionarySerializer()
    trigger.serialize(s)
    return {k: v.tolist() for k, v in s.target.items()}


def test_interval_trigger(fires, fake_trainer):
    assert fires(T.IntervalTrigger(3, 'iteration')) == \
        [0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    assert fires(T.IntervalTrigger(1, 'epoch')) == \
        [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
    assert fires(T.IntervalTrigger(0.5, 'epoch')) == \
        [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    t = T.IntervalTrigger(3, 'iteration')
    assert str(t) == "IntervalTrigger(3, 'iteration')"
    # only str is Chainer's; repr stays the default object form
    assert repr(t).startswith(
        '<chainer.training.triggers.interval_trigger.IntervalTrigger object')
    assert t.get_training_length() == (3, 'iteration')
    assert _saved(t) == {'previous_iteration': 0,
                         'previous_epoch_detail': 0.0}
    fires(t, n=4)
    assert _saved(t) == {'previous_iteration': 4,
                         'previous_epoch_detail': 1.0}
    # resumed: the saved position decides
    t = T.IntervalTrigger(2, 'iteration')
    NpzDeserializer({'previous_iteration': numpy.array(3),
                     'previous_epoch_detail': numpy.array(0.75)}).load(t)
    tr = fake_trainer(4)
    tr.updater.iteration = 5
    assert t(tr)
    with pytest.raises(ValueError, match="either 'epoch' or 'iteration'"):
        T.IntervalTrigger(2, 'foo')


def test_get_trigger():
    assert isinstance(util.get_trigger((2, 'epoch')), T.IntervalTrigger)
    assert util.get_trigger(None)(None) is False
    f = lambda trainer: True
    assert util.get_trigger(f) is f
    t = T.IntervalTrigger(1, 'epoch')
    assert util.get_trigger(t) is t
    with pytest.raises(ValueError, match='unit'):
        util.get_trigger((1, 'x'))
    with pytest.raises(TypeError):
        util.get_trigger(5)


def test_manual_schedule_trigger(fires, fake_trainer):
    assert fires(T.ManualScheduleTrigger([2, 5, 11], 'iteration')) == \
        [0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
    assert fires(T.ManualScheduleTrigger(1.5, 'epoch')) == \
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    m = T.ManualScheduleTrigger([0.5, 1.25], 'epoch')
    tr = fake_trainer(4)
    got = []
    for _ in range(7):
        tr.updater.iteration += 1
        got.append((m(tr), m.finished))
    assert got == [(False, False), (True, False), (False, False),
                   (False, False), (True, True), (False, True),
                   (False, True)]
    assert _saved(m) == {'previous_iteration': 7,
                         'previous_epoch_detail': 1.75, 'finished': True}
    with pytest.raises(ValueError, match='unit'):
        T.ManualScheduleTrigger([1], 'foo')


def test_min_max_value_triggers(fires):
    assert fires(T.MinValueTrigger('main/loss', (2, 'iteration')),
                 obs=VALS) == [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]
    assert fires(T.MaxValueTrigger('main/loss', (2, 'iteration')),
                 obs=VALS) == [0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    best = T.BestValueTrigger('main/loss', lambda a, b: a > b + 0.5,
                              (1, 'iteration'))
    assert fires(best, obs=VALS) == [0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0]


def test_best_value_trigger_serialization(fires):
    b = T.MinValueTrigger('main/loss', (3, 'iteration'))
    saved = _saved(b)
    assert saved['best_value'] is None
    fires(b, n=4, obs=VALS)
    saved = _saved(b)
    assert saved['best_value'] == 5.0
    assert saved['interval_trigger/previous_iteration'] == 4
    assert saved['summary/_names'] == '["main/loss"]'
    s = DictionarySerializer()
    b.serialize(s)
    b2 = T.MinValueTrigger('main/loss', (3, 'iteration'))
    NpzDeserializer(s.target).load(b2)
    assert b2._best_value == 5.0


def test_best_value_trigger_missing_key(fires):
    with pytest.raises(KeyError):
        fires(T.MinValueTrigger('main/x', (1, 'iteration')), obs=[1] * 12)


def test_once_trigger(fires, fake_trainer):
    assert fires(T.OnceTrigger()) == [1] + [0] * 12
    o = T.OnceTrigger()
    assert _saved(o) == {'_flag_first': True} and not o.finished
    o(fake_trainer())
    assert _saved(o) == {'_flag_first': False} and o.finished
    for call_on_resume, expect in ((False, False), (True, True)):
        o = T.OnceTrigger(call_on_resume)
        NpzDeserializer({'_flag_first': numpy.array(False)}).load(o)
        assert o(fake_trainer()) is expect
        assert o.finished


def test_time_trigger(fires):
    times = [0.3, 0.9, 1.2, 1.3, 2.5, 5.0, 5.1, 5.2, 6.1, 7, 7, 7]
    assert fires(T.TimeTrigger(1.0), times=times) == \
        [0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0]
    t = T.TimeTrigger(1.0)
    fires(t, n=3, times=[0.3, 1.5, 2.7])
    assert _saved(t) == {'next_time': 3.0}


def test_early_stopping_trigger(fires):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        e1 = fires(T.EarlyStoppingTrigger(
            (2, 'iteration'), patience=2, max_trigger=(40, 'iteration'),
            verbose=True), obs=VALS)
        e2 = fires(T.EarlyStoppingTrigger(
            (1, 'iteration'), monitor='main/accuracy', patience=1,
            max_trigger=(40, 'iteration'), verbose=True), obs=VALS)
        e3 = fires(T.EarlyStoppingTrigger(
            (1, 'iteration'), patience=100, max_trigger=(5, 'iteration')),
            n=8, obs=VALS)
        e4 = fires(T.EarlyStoppingTrigger(
            (1, 'iteration'), mode='max', patients=1,
            max_trigger=(40, 'iteration')), n=8, obs=VALS)
    assert e1 == [0] * 13
    assert e2 == [0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1]
    assert e3 == [0, 0, 0, 0, 0, 1, 0, 0, 0]
    assert e4 == [0, 0, 1, 0, 1, 1, 1, 0, 0]
    assert buf.getvalue() == (
        'early stopping: operator is less\n'
        'early stopping: operator is greater\n'
        'Epoch 0: early stopping\n' + 'Epoch 1: early stopping\n' * 3 +
        'Epoch 2: early stopping\n' * 3 + 'Epoch 3: early stopping\n')
    e = T.EarlyStoppingTrigger(max_trigger=(7, 'iteration'))
    assert e.get_training_length() == (7, 'iteration')
    assert e.patience == 3 and e.best == float('inf')


def test_early_stopping_trigger_errors_and_missing_key(fires):
    with pytest.raises(TypeError, match="Both 'patience' and 'patients'"):
        T.EarlyStoppingTrigger(patience=2, patients=3)
    with pytest.raises(TypeError, match='foo'):
        T.EarlyStoppingTrigger(foo=2)
    with pytest.raises(ValueError, match='mode'):
        T.EarlyStoppingTrigger(mode='foo')
    e = T.EarlyStoppingTrigger((1, 'iteration'), monitor='main/x')
    with pytest.warns(UserWarning, match='main/x is not in observation'):
        assert fires(e, obs=[1] * 12) == [0] * 13


def _load_old(trigger, message):
    with pytest.warns(UserWarning) as record:
        NpzDeserializer({'dummy': numpy.array(0)}).load(trigger)
    assert any(message in str(w.message) for w in record)


def test_triggers_resume_snapshots_without_their_position(fake_trainer):
    # A snapshot written by an older Chainer holds none of the trigger's
    # keys: loading warns, and the position is then guessed from the
    # updater (the iteration before, or its previous_epoch_detail).
    tr = fake_trainer(4)
    tr.updater.iteration = 6

    t = T.IntervalTrigger(2, 'iteration')
    _load_old(t, 'previous value of iteration')
    assert t(tr)                 # 5 -> 6 crosses a multiple of 2
    tr.updater.iteration = 7
    assert not t(tr)

    t = T.IntervalTrigger(1, 'epoch')
    _load_old(t, 'previous value of epoch_detail')
    tr.updater.iteration = 8     # 7/4 -> 8/4 crosses epoch 2
    assert t(tr)

    t = T.ManualScheduleTrigger([2, 9], 'iteration')
    _load_old(t, 'flag of finished')
    assert t.finished is False   # unknown until the next call
    tr.updater.iteration = 9
    assert t(tr) and t.finished
    t = T.ManualScheduleTrigger(2, 'iteration')
    _load_old(t, '')
    assert not t(tr) and t.finished   # past the last point already

    t = T.OnceTrigger()
    _load_old(t, 'OnceTrigger guesses')
    assert not t(tr) and t.finished
    t = T.OnceTrigger(call_on_resume=True)
    _load_old(t, '')
    assert t(tr) and not t(tr)
