import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import nesterov_ag
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, NesterovAG(lr=0.1), float32.
STEP1 = [0.11822628229856491, 0.15972144901752472, -0.07362733036279678,
         0.14077772200107574, -0.2901158332824707, 0.23658987879753113]
STEP6 = [0.1565491259098053, -0.9703872203826904, -0.2570033073425293,
         -0.29846441745758057, 0.495053768157959, -0.3419356942176819]


def nesterov_step(w, g, state, t, lr, momentum):
    v = state.get('v', 0) * momentum - lr * g
    state['v'] = v
    return w + momentum ** 2 * v - (1 + momentum) * lr * g


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    check_against_reference(optimizers.NesterovAG(lr=0.1, momentum=0.7),
                            nesterov_step, dtype, lr=0.1, momentum=0.7)


def test_matches_chainer():
    out, _ = run_rule(optimizers.NesterovAG(lr=0.1).create_update_rule())
    np.testing.assert_allclose(out[0].ravel(), STEP1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)


def test_hyperparams():
    check_hyperparams(optimizers.NesterovAG, nesterov_ag.NesterovAGRule,
                      {'lr': 0.01, 'momentum': 0.9}, nesterov_ag)


def test_train():
    assert train(optimizers.NesterovAG()) < 1e-7  # Chainer: 2.99e-09


def test_serialize_resume():
    check_serialize_resume(optimizers.NesterovAG)
