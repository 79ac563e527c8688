import numpy as np
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import rmsprop
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, float32, after 6 steps.
STEP6 = [0.15223225951194763, -0.7921311855316162, -0.3960341811180115,
         -0.04921130836009979, 0.47352543473243713, -0.010753661394119263]
STEP6_INSIDE = [0.14294928312301636, -0.7796831130981445, -0.325939804315567,
                -0.42588692903518677, 0.5603393912315369, -0.1636437475681305]


def rmsprop_step(w, g, state, t, lr, alpha, eps, inside):
    ms = alpha * state.get('ms', 0) + (1 - alpha) * g * g
    state['ms'] = ms
    denom = np.sqrt(ms + eps) if inside else np.sqrt(ms) + eps
    return w - lr * g / denom


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
@pytest.mark.parametrize('inside', [False, True])
def test_update_matches_formula(dtype, inside):
    opt = optimizers.RMSprop(lr=0.05, alpha=0.9, eps=1e-3,
                             eps_inside_sqrt=inside)
    check_against_reference(opt, rmsprop_step, dtype, lr=0.05, alpha=0.9,
                            eps=1e-3, inside=inside)


def test_matches_chainer():
    out, _ = run_rule(optimizers.RMSprop(lr=0.1).create_update_rule())
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    opt = optimizers.RMSprop(lr=0.1, eps=1e-2, eps_inside_sqrt=True)
    out, _ = run_rule(opt.create_update_rule())
    np.testing.assert_allclose(out[5].ravel(), STEP6_INSIDE, rtol=1e-5,
                               atol=1e-6)


def test_eps_too_small_for_float16():
    rule = optimizers.RMSprop().create_update_rule()  # eps=1e-8 -> 0 in f16
    p = chainer.Parameter(np.ones(3, np.float16))
    p.grad = np.ones(3, np.float16)
    with pytest.raises(ValueError, match='too small for float16'):
        rule.update(p)
    # eps=0 is allowed, and so is an eps that float16 can represent
    for eps in (0, 1e-4):
        rule = optimizers.RMSprop(eps=eps).create_update_rule()
        rule.update(p)


def test_hyperparams():
    check_hyperparams(optimizers.RMSprop, rmsprop.RMSpropRule,
                      {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8,
                       'eps_inside_sqrt': False}, rmsprop)


def test_train():
    loss = train(optimizers.RMSprop())
    assert loss < 0.06  # Chainer: 0.0518106 (oscillates at lr=0.01)
    assert loss == pytest.approx(0.0518106, rel=1e-3)


def test_serialize_resume():
    check_serialize_resume(optimizers.RMSprop)
