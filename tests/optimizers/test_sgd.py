import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import sgd
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, SGD(lr=0.1) on opt_harness's problem, float32.
STEP1 = [0.10522821545600891, 0.3305051922798157, 0.10251786559820175,
         0.10858974605798721, -0.2034008800983429, 0.27141982316970825]
STEP6 = [0.11385887116193771, 0.022213615477085114, 0.05109059810638428,
         -0.0296456441283226, 0.042959362268447876, 0.11337794363498688]


def sgd_step(w, g, state, t, lr):
    return w - lr * g


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    check_against_reference(optimizers.SGD(lr=0.1), sgd_step, dtype, lr=0.1)


def test_matches_chainer():
    out, _ = run_rule(optimizers.SGD(lr=0.1).create_update_rule())
    np.testing.assert_allclose(out[0].ravel(), STEP1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)


def test_hyperparams():
    check_hyperparams(optimizers.SGD, sgd.SGDRule, {'lr': 0.01}, sgd)
    assert optimizers.SGD(0.5).lr == 0.5


def test_no_state_and_grad_none():
    rule = optimizers.SGD().create_update_rule()
    out, p = run_rule(rule, steps=1)
    assert rule.state == {} and rule.t == 1
    p.cleargrad()
    before = p.array.copy()
    rule.update(p)
    np.testing.assert_array_equal(p.array, before)
    assert rule.t == 2


def test_train():
    assert train(optimizers.SGD(lr=0.1)) < 1e-5  # Chainer: 2.59e-06


def test_serialize_resume():
    saved = check_serialize_resume(lambda: optimizers.SGD(lr=0.1))
    assert sorted(saved) == ['W/t', 'b/t', 'epoch', 't']
