import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import ada_grad
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, AdaGrad(lr=0.1), float32, after 6 steps.
STEP6 = [0.09933705627918243, 0.13289983570575714, 0.09547486901283264,
         0.10545875877141953, -0.0616055503487587, 0.03519429266452789]


def adagrad_step(w, g, state, t, lr, eps):
    h = state.get('h', 0) + g * g
    state['h'] = h
    return w - lr * g / (np.sqrt(h) + eps)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    check_against_reference(optimizers.AdaGrad(lr=0.1, eps=1e-3),
                            adagrad_step, dtype, lr=0.1, eps=1e-3)


def test_matches_chainer():
    rule = optimizers.AdaGrad(lr=0.1).create_update_rule()
    out, _ = run_rule(rule)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    assert sorted(rule.state) == ['h']


def test_hyperparams():
    check_hyperparams(optimizers.AdaGrad, ada_grad.AdaGradRule,
                      {'lr': 0.001, 'eps': 1e-8}, ada_grad)


def test_train():
    assert train(optimizers.AdaGrad(lr=0.3)) < 1e-5  # Chainer: 4.3e-07


def test_serialize_resume():
    check_serialize_resume(optimizers.AdaGrad)
