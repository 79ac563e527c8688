import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import corrected_momentum_sgd as cms
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, CorrectedMomentumSGD(lr=0.1), float32, after 6 steps.
STEP6 = [0.11197084933519363, -0.854199230670929, -0.15985852479934692,
         -0.09362949430942535, 0.2985767722129822, -0.3216227889060974]


def corrected_step(w, g, state, t, lr, momentum):
    v = state.get('v', 0) * momentum - g
    state['v'] = v
    return w + lr * v


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    opt = optimizers.CorrectedMomentumSGD(lr=0.1, momentum=0.8)
    check_against_reference(opt, corrected_step, dtype, lr=0.1, momentum=0.8)


def test_matches_chainer():
    rule = optimizers.CorrectedMomentumSGD(lr=0.1).create_update_rule()
    out, _ = run_rule(rule)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)


def test_lr_change_rescales_velocity():
    # The velocity does not contain lr: changing lr rescales the next step
    # as a whole, unlike MomentumSGD.
    opt = optimizers.CorrectedMomentumSGD(lr=0.1, momentum=0.5)
    rule = opt.create_update_rule()
    _, p = run_rule(rule, steps=2)
    v = rule.state['v'].copy()
    opt.lr = 0.2
    before = p.array.copy()
    p.grad = np.zeros_like(p.array)
    rule.update(p)
    np.testing.assert_allclose(p.array - before, 0.2 * 0.5 * v, rtol=1e-6)


def test_hyperparams():
    check_hyperparams(optimizers.CorrectedMomentumSGD,
                      cms.CorrectedMomentumSGDRule,
                      {'lr': 0.01, 'momentum': 0.9}, cms)


def test_train():
    assert train(optimizers.CorrectedMomentumSGD()) < 1e-7


def test_serialize_resume():
    check_serialize_resume(optimizers.CorrectedMomentumSGD)
