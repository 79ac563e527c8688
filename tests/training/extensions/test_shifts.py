"""The optimizer-attribute schedules, against values of Chainer 7.8.1."""

import pytest

from chainer.serializers import DictionarySerializer, NpzDeserializer
from chainer.training import extensions as E


class _Opt:
    pass


def _run(ext, init=0.1, n=8, fake=None):
    opt = _Opt()
    opt.lr = init
    tr = fake(optimizers={'main': opt})
    ext.initialize(tr)
    values = [opt.lr]
    for _ in range(n):
        tr.updater.iteration += 1
        ext(tr)
        values.append(round(float(opt.lr), 10))
    s = DictionarySerializer()
    ext.serialize(s)
    return values, {k: v.tolist() for k, v in s.target.items()}


CASES = [
    (E.ExponentialShift('lr', 0.5),
     [0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625, 0.00078125,
      0.000390625], {'_t': 8, '_last_value': 0.000390625}),
    (E.ExponentialShift('lr', 0.5, init=1.0, target=0.1),
     [1.0, 0.5, 0.25, 0.125] + [0.1] * 5, {'_t': 8, '_last_value': 0.1}),
    (E.ExponentialShift('lr', 2, init=1.0, target=10),
     [1.0, 2.0, 4.0, 8.0] + [10.0] * 5, {'_t': 8, '_last_value': 10}),
    (E.LinearShift('lr', (1.0, 0.0), (2, 6)),
     [1.0, 1.0, 1.0, 0.75, 0.5, 0.25, 0.0, 0.0, 0.0],
     {'_t': 8, '_last_value': 0.0}),
    (E.StepShift('lr', 0.5, 3),
     [0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025],
     {'_t': 8, '_last_value': 0.025}),
    (E.StepShift('lr', 0.5, 2, init=1.0, target=0.2),
     [1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.2, 0.2, 0.2],
     {'_t': 8, '_last_value': 0.2}),
    (E.MultistepShift('lr', 0.1, [2, 5], 1.0),
     [1.0, 1.0, 0.1, 0.1, 0.1, 0.01, 0.01, 0.01, 0.01],
     {'_t': 8, '_current_step': 2}),
    (E.PolynomialShift('lr', 0.5, 6),
     [0.1, 0.0912870929, 0.0816496581, 0.0707106781, 0.0577350269,
      0.040824829, 0.0, 0.0, 0.0], {'_t': 8, '_last_value': 0.0}),
    (E.PolynomialShift('lr', 2, 10, init=1.0, target=0.5),
     [1.0, 0.81, 0.64] + [0.5] * 6, {'_t': 8, '_last_value': 0.5}),
    (E.WarmupShift('lr', 0.0, 4, 1.0),
     [0.0, 0.25, 0.5, 0.75] + [1.0] * 5, {'_t': 8}),
    (E.InverseShift('lr', 0.5, 2),
     [0.1, 0.0444444444, 0.025, 0.016, 0.0111111111, 0.0081632653, 0.00625,
      0.0049382716, 0.004], {'_t': 8, '_last_value': 0.004}),
    (E.InverseShift('lr', 0.5, 2, init=1.0, target=0.3),
     [1.0, 0.4444444444] + [0.3] * 7, {'_t': 8, '_last_value': 0.3}),
    # negative values: the target bounds the magnitude
    (E.ExponentialShift('lr', 2, init=-1.0, target=-10),
     [-1.0, -2.0, -4.0, -8.0] + [-10.0] * 5, {'_t': 8, '_last_value': -10}),
    (E.ExponentialShift('lr', 0.5, init=-1.0, target=-0.1),
     [-1.0, -0.5, -0.25, -0.125] + [-0.1] * 5,
     {'_t': 8, '_last_value': -0.1}),
    (E.StepShift('lr', 2, 2, init=-1.0, target=-3),
     [-1.0, -1.0, -2.0, -2.0] + [-3.0] * 5, {'_t': 8, '_last_value': -3}),
    # the first value is init, even beyond the target
    (E.StepShift('lr', 1.0, 2, init=-2.0, target=-3),
     [-2.0] + [-3.0] * 8, {'_t': 8, '_last_value': -3}),
    (E.InverseShift('lr', 0.5, -1, init=-1.0, target=-2.0),
     [-1.0, -1.5] + [-2.0] * 7, {'_t': 8, '_last_value': -2.0}),
    (E.InverseShift('lr', 0.5, 2, init=-1.0, target=-0.3),
     [-1.0, -0.4444444444] + [-0.3] * 7, {'_t': 8, '_last_value': -0.3}),
    (E.PolynomialShift('lr', 2, 10, init=-1.0, target=-0.5),
     [-1.0, -0.81, -0.64] + [-0.5] * 6, {'_t': 8, '_last_value': -0.5}),
]


@pytest.mark.parametrize('ext,values,saved', CASES,
                         ids=[type(c[0]).__name__ for c in CASES])
def test_values_and_state(ext, values, saved, fake_trainer):
    assert ext.trigger == (1, 'iteration') and ext.priority == 100
    got_values, got_saved = _run(ext, fake=fake_trainer)
    assert got_values == pytest.approx(values)
    assert got_saved == pytest.approx(saved)


RESUME = [
    (E.ExponentialShift, ('lr', 0.5), 0.0125, 0.00625),
    (E.LinearShift, ('lr', (1., 0.), (0, 8)), 0.625, 0.5),
    (E.PolynomialShift, ('lr', 1, 8), 0.0625, 0.05),
    (E.InverseShift, ('lr', .5, 1), 0.04, 0.1 / 3),
    # Chainer restarts these at init / warmup_start; we continue.
    (E.MultistepShift, ('lr', .1, [2, 4], 1.), 0.1, 0.01),
    (E.WarmupShift, ('lr', 0., 4, 1.), 0.75, 1.0),
]


@pytest.mark.parametrize('cls,args,at_resume,after', RESUME,
                         ids=[r[0].__name__ for r in RESUME])
def test_resume(cls, args, at_resume, after, fake_trainer):
    ext = cls(*args)
    _run(ext, n=3, fake=fake_trainer)
    s = DictionarySerializer()
    ext.serialize(s)
    ext2 = cls(*args)
    NpzDeserializer(s.target).load(ext2)
    opt = _Opt()
    opt.lr = 0.1
    tr = fake_trainer(optimizers={'main': opt})
    ext2.initialize(tr)
    assert opt.lr == pytest.approx(at_resume)
    ext2(tr)
    assert opt.lr == pytest.approx(after)
    assert isinstance(opt.lr, float)


def test_explicit_optimizer_and_errors(fake_trainer):
    opt = _Opt()
    opt.momentum = 0.5
    ext = E.ExponentialShift('momentum', 2, optimizer=opt)
    tr = fake_trainer(optimizers={})
    ext.initialize(tr)
    ext(tr)
    assert opt.momentum == 1.0
    with pytest.raises(ValueError):
        E.ExponentialShift('lr', -1)
    with pytest.raises(ValueError):
        E.StepShift('lr', 0.5, 0)
    with pytest.raises(ValueError):
        E.WarmupShift('lr', 0., 0, 1.)


def test_polynomial_shift_with_target_divides_by_a_zero_value(fake_trainer):
    # Chainer 7.8.1 takes target / value, so once the value has decayed to
    # 0 the step raises, which a user's program sees
    ext = E.PolynomialShift('lr', 2, 3, init=0.5, target=0.1)
    with pytest.raises(ZeroDivisionError, match='float division by zero'):
        _run(ext, n=4, fake=fake_trainer)
    values, _ = _run(E.PolynomialShift('lr', 2, 10, init=0.5, target=0.1),
                     n=5, fake=fake_trainer)
    assert values == pytest.approx([0.5, 0.405, 0.32, 0.245, 0.18, 0.125])


def test_warmup_shift_follows_chainers_formula(fake_trainer):
    # (t * init + (n - t) * start) / n, as Chainer 7.8.1: its last step
    # lands an ulp off init
    values, _ = _run(E.WarmupShift('lr', 0.03, 3, 0.7), n=4,
                     fake=fake_trainer)
    assert values[1:] == [0.2533333333, 0.4766666667, 0.7, 0.7]
    opt = _Opt()
    opt.lr = 0.03
    tr = fake_trainer(optimizers={'main': opt})
    ext = E.WarmupShift('lr', 0.03, 3, 0.7)
    ext.initialize(tr)
    assert opt.lr == 0.03
    got = []
    for _ in range(4):
        ext(tr)
        got.append(opt.lr)
    assert got == [0.25333333333333335, 0.4766666666666666,
                   0.6999999999999998, 0.6999999999999998]
    # warmup_start=None starts from the optimizer's value
    opt.lr = 0.3
    ext = E.WarmupShift('lr', None, 3, 0.7)
    ext.initialize(tr)
    ext(tr)
    assert opt.lr == 0.4333333333333333


def test_negative_rate_messages_are_chainers():
    with pytest.raises(ValueError) as e:
        E.ExponentialShift('lr', -0.5)
    assert str(e.value) == 'ExponentialShift does not support negative rate'
    with pytest.raises(ValueError) as e:
        E.InverseShift('lr', -1, 1)
    assert str(e.value) == 'InverseShift does not support negative gamma'
