import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import rmsprop_graves
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, RMSpropGraves(lr=0.1), float32, after 6 steps.
STEP6 = [-0.11889905482530594, -2.4381415843963623, -0.6816444396972656,
         1.0263843536376953, 0.6528661251068115, -1.9132307767868042]


def graves_step(w, g, state, t, lr, alpha, momentum, eps):
    n = alpha * state.get('n', 0) + (1 - alpha) * g * g
    gm = alpha * state.get('g', 0) + (1 - alpha) * g
    delta = momentum * state.get('delta', 0) - lr * g / np.sqrt(
        n - gm * gm + eps)
    state.update(n=n, g=gm, delta=delta)
    return w + delta


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    opt = optimizers.RMSpropGraves(lr=0.01, alpha=0.9, momentum=0.5,
                                   eps=1e-2)
    check_against_reference(opt, graves_step, dtype, lr=0.01, alpha=0.9,
                            momentum=0.5, eps=1e-2)


def test_matches_chainer():
    rule = optimizers.RMSpropGraves(lr=0.1).create_update_rule()
    out, _ = run_rule(rule)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    assert sorted(rule.state) == ['delta', 'g', 'n']


def test_hyperparams():
    check_hyperparams(optimizers.RMSpropGraves,
                      rmsprop_graves.RMSpropGravesRule,
                      {'lr': 1e-4, 'alpha': 0.95, 'momentum': 0.9,
                       'eps': 1e-4}, rmsprop_graves)


def test_train():
    assert train(optimizers.RMSpropGraves(lr=0.01)) < 1e-8  # Chainer: 4e-10


def test_serialize_resume():
    check_serialize_resume(optimizers.RMSpropGraves)
