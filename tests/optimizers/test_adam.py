import math
import warnings

import numpy as np
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import adam
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

DEFAULTS = {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
            'eta': 1.0, 'weight_decay_rate': 0, 'amsgrad': False,
            'adabound': False, 'final_lr': 0.1, 'gamma': 1e-3}

# Chainer 7.8.1 on opt_harness's problem, float32, after 6 steps.
CHAINER_STEP6 = [
    (optimizers.Adam, dict(alpha=0.1),
     [0.10459896177053452, -0.1343897581100464, 0.009327543899416924,
      0.15440726280212402, -0.023059267550706863, -0.16919903457164764]),
    (optimizers.Adam, dict(alpha=0.1, weight_decay_rate=0.1, eta=0.5),
     [0.07838209718465805, 0.0655081644654274, 0.0644894614815712,
      0.0893334150314331, -0.04884032905101776, 0.006325975060462952]),
    (optimizers.AdamW, dict(alpha=0.1, weight_decay_rate=0.1),
     [0.060033950954675674, -0.20293551683425903, -0.024164842441678047,
      0.0569198913872242, 0.04655234143137932, -0.18273720145225525]),
    (optimizers.AMSGrad, dict(alpha=0.1),
     [0.10459896177053452, -0.1343897581100464, 0.009327543899416924,
      0.15440726280212402, -0.023059267550706863, -0.16919903457164764]),
    (optimizers.AMSBound, dict(alpha=0.1, final_lr=0.05, gamma=0.1),
     [0.09418556094169617, 0.12163552641868591, 0.09147973358631134,
      0.08882606774568558, -0.08813747763633728, 0.15164920687675476]),
]


def adam_step(w, g, state, t, alpha, beta1, beta2, eps, eta, wd,
              amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3):
    m = state.get('m', 0) + (1 - beta1) * (g - state.get('m', 0))
    v = state.get('v', 0) + (1 - beta2) * (g * g - state.get('v', 0))
    state.update(m=m, v=v)
    if amsgrad:
        v = state['vhat'] = np.maximum(state.get('vhat', 0), v)
    alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    step = alpha_t / (np.sqrt(v) + eps)
    if adabound:
        step = np.clip(step, final_lr * (1 - 1 / (gamma * t + 1)),
                       final_lr * (1 + 1 / (gamma * t)))
    return w - eta * (step * m + wd * w)


HP = dict(alpha=0.05, beta1=0.8, beta2=0.9, eps=1e-3, eta=0.7)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
@pytest.mark.parametrize('variant', [
    {}, {'amsgrad': True}, {'adabound': True, 'final_lr': 0.02, 'gamma': 0.1},
    {'amsgrad': True, 'adabound': True, 'final_lr': 0.02, 'gamma': 0.1}])
def test_update_matches_formula(dtype, variant):
    opt = optimizers.Adam(weight_decay_rate=0.05, **HP, **variant)
    check_against_reference(opt, adam_step, dtype, wd=0.05, **HP, **variant)


@pytest.mark.parametrize('cls, kwargs, want', CHAINER_STEP6)
def test_matches_chainer(cls, kwargs, want):
    out, _ = run_rule(cls(**kwargs).create_update_rule())
    np.testing.assert_allclose(out[5].ravel(), want, rtol=1e-5, atol=1e-6)


def test_variants_hyperparams():
    assert optimizers.AdamW(weight_decay_rate=0.1).hyperparam.get_dict() == \
        dict(DEFAULTS, weight_decay_rate=0.1)
    assert optimizers.AMSGrad().hyperparam.get_dict() == \
        dict(DEFAULTS, amsgrad=True)
    assert optimizers.AdaBound(final_lr=0.5).hyperparam.get_dict() == \
        dict(DEFAULTS, adabound=True, final_lr=0.5)
    assert optimizers.AMSBound().hyperparam.get_dict() == \
        dict(DEFAULTS, adabound=True, amsgrad=True)
    for cls in (optimizers.AdamW, optimizers.AMSGrad, optimizers.AdaBound,
                optimizers.AMSBound):
        assert issubclass(cls, optimizers.Adam)
        assert type(cls().create_update_rule()) is adam.AdamRule


def test_state_keys():
    rule = optimizers.Adam().create_update_rule()
    run_rule(rule, steps=1)
    assert sorted(rule.state) == ['m', 'v']
    rule = optimizers.AMSGrad().create_update_rule()
    run_rule(rule, steps=1)
    assert sorted(rule.state) == ['m', 'v', 'vhat']


def test_alpha_t_and_lr():
    opt = optimizers.Adam(alpha=0.1)
    with pytest.raises(RuntimeError, match='have not been started'):
        opt.alpha_t
    opt.t = 3
    want = 0.1 * math.sqrt(1 - 0.999 ** 3) / (1 - 0.9 ** 3)
    assert opt.alpha_t == pytest.approx(want, rel=1e-15)
    with pytest.warns(DeprecationWarning, match='alpha_t'):
        assert opt.lr == opt.alpha_t
    rule = opt.create_update_rule()
    with pytest.raises(RuntimeError):
        rule.alpha_t
    run_rule(rule, steps=2)
    assert rule.alpha_t == pytest.approx(
        0.1 * math.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2), rel=1e-15)
    with pytest.warns(DeprecationWarning):
        assert rule.lr == rule.alpha_t


def test_adabound_bounds():
    opt = optimizers.AdaBound(alpha=0.1, final_lr=0.5, gamma=0.1)
    rule = opt.create_update_rule()
    with pytest.raises(RuntimeError, match='bounds'):
        rule.bounds
    rule.t = 2
    p = chainer.Parameter(np.ones(3, np.float32))
    p.grad = np.ones(3, np.float32)
    rule.update(p)
    # Chainer 7.8.1: (0.11538461538461542, 2.1666666666666665) at t = 3
    assert rule.bounds == pytest.approx((0.5 * (1 - 1 / 1.3),
                                         0.5 * (1 + 1 / 0.3)))
    opt.alpha = 0.2  # the final lr follows alpha's schedule
    assert rule.bounds == pytest.approx((0.5 * 2 * (1 - 1 / 1.3),
                                         0.5 * 2 * (1 + 1 / 0.3)))


def test_float16_moments_round_as_chainer():
    # Chainer 7.8.1 keeps the moments in the parameter's dtype: in float16
    # v = (1e-4) ** 2 / 1000 underflows to 0 and the step is alpha_t / eps
    # (its values, which its programs print)
    rule = optimizers.Adam(alpha=0.01).create_update_rule()
    p = chainer.Parameter(np.ones(2, np.float16))
    p.grad = np.array([1e-4, -1e-4], np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        rule.update(p)
    assert p.array.dtype == np.float16
    assert p.array.tolist() == [-2.166015625, 4.16796875]
    assert rule.state['m'].dtype == np.float16
    assert rule.state['v'].tolist() == [0.0, 0.0]


@pytest.mark.parametrize('amsgrad', [False, True])
@pytest.mark.parametrize('g, want, m, v', [
    (1e-4, [-12.1171875, 14.1171875], 2.7120113372802734e-05, 0.0),
    (1e3, [0.970703125, 1.029296875], 271.0, 2998.0)])
def test_float16_moments_in_float16(g, want, m, v, amsgrad):
    rule = optimizers.Adam(alpha=0.01, amsgrad=amsgrad).create_update_rule()
    p = chainer.Parameter(np.ones(2, np.float16))
    for _ in range(3):
        p.grad = np.array([g, -g], np.float16)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            rule.update(p)
    names = ('m', 'v', 'vhat') if amsgrad else ('m', 'v')
    for name in names:
        assert rule.state[name].dtype == np.float16
    assert rule.state['m'].tolist() == [m, -m]
    assert rule.state['v'].tolist() == [v, v]
    assert p.array.tolist() == want


def test_hyperparams():
    check_hyperparams(optimizers.Adam, adam.AdamRule, DEFAULTS, adam)


@pytest.mark.parametrize('cls, want', [
    (optimizers.Adam, 1.5805889930220474e-08),
    (optimizers.AMSGrad, 1.0563142360808797e-08),
    (optimizers.AdaBound, 1.5795558638842522e-08),
    (optimizers.AMSBound, 1.0574017217379605e-08)])
def test_train(cls, want):
    loss = train(cls(alpha=0.05))
    assert loss < 1e-7  # want: Chainer 7.8.1's loss
    assert loss == pytest.approx(want, rel=0.05)


def test_train_adamw():
    assert train(optimizers.AdamW(alpha=0.05, weight_decay_rate=1e-4)) < 1e-5


@pytest.mark.parametrize('cls', [optimizers.Adam, optimizers.AMSBound])
def test_serialize_resume(cls):
    saved = check_serialize_resume(lambda: cls(alpha=0.05))
    keys = {'Adam': ['m', 't', 'v'], 'AMSBound': ['m', 't', 'v', 'vhat']}
    assert sorted(k[2:] for k in saved if k.startswith('W/')) == \
        keys[cls.__name__]


def test_weight_decay_rounding_matches_chainer():
    # Chainer scales the parameter by (1 - eta * wd) first, then subtracts
    # the Adam step: the rounding order shows in float32 bits.
    rng = np.random.RandomState(0)
    w0 = rng.randn(200).astype(np.float32)
    g = rng.randn(200).astype(np.float32)
    link = chainer.Link()
    with link.init_scope():
        link.p = chainer.Parameter(w0.copy())
    opt = optimizers.AdamW(alpha=0.01, weight_decay_rate=0.1, eta=0.7)
    opt.setup(link)
    link.p.grad = g.copy()
    opt.update()
    m = np.zeros_like(g)
    v = np.zeros_like(g)
    m += (1 - 0.9) * (g - m)
    v += (1 - 0.999) * (g * g - v)
    alpha_t = 0.01 * math.sqrt(1 - 0.999) / (1 - 0.9)
    want = w0.copy()
    want *= 1 - 0.7 * 0.1
    want -= 0.7 * (alpha_t / (np.sqrt(v) + 1e-8) * m)
    np.testing.assert_array_equal(link.p.array, want)
