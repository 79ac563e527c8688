import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import momentum_sgd
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, MomentumSGD(lr=0.1), float32, after 6 steps.
STEP6 = [0.11197085678577423, -0.8541991114616394, -0.15985852479934692,
         -0.09362951666116714, 0.2985767722129822, -0.32162272930145264]


def momentum_step(w, g, state, t, lr, momentum):
    v = state.get('v', 0) * momentum - lr * g
    state['v'] = v
    return w + v


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    check_against_reference(optimizers.MomentumSGD(lr=0.1, momentum=0.8),
                            momentum_step, dtype, lr=0.1, momentum=0.8)


def test_matches_chainer():
    rule = optimizers.MomentumSGD(lr=0.1).create_update_rule()
    out, _ = run_rule(rule)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    assert sorted(rule.state) == ['v']
    assert rule.state['v'].dtype == np.float32


def test_hyperparams():
    check_hyperparams(optimizers.MomentumSGD, momentum_sgd.MomentumSGDRule,
                      {'lr': 0.01, 'momentum': 0.9}, momentum_sgd)


def test_rule_level_override():
    opt = optimizers.MomentumSGD(lr=0.1, momentum=0.0)
    rule = opt.create_update_rule()
    rule.hyperparam.momentum = 0.8
    got, _ = run_rule(rule)
    from opt_harness import run_reference
    want = run_reference(momentum_step, lr=0.1, momentum=0.8)
    np.testing.assert_allclose(got[5], want[5], rtol=1e-5)


def test_train():
    assert train(optimizers.MomentumSGD()) < 1e-7  # Chainer: 6.6e-09


def test_serialize_resume():
    saved = check_serialize_resume(optimizers.MomentumSGD)
    assert saved['W/v'].shape == (3, 2)
