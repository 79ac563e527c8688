import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import smorms3
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, SMORMS3(lr=0.1), float32.
STEP1 = [0.23904836177825928, 0.2889573872089386, 0.06410540640354156,
         0.23118773102760315, -0.2941117286682129, 0.1503668576478958]
STEP6 = [0.03150206804275513, -0.11041027307510376, -0.0910530835390091,
         0.1119159609079361, 0.0737483948469162, -0.08063556253910065]


def smorms3_step(w, g, state, t, lr, eps):
    mem = state.get('mem', 1.)
    r = 1 / (mem + 1)
    gm = (1 - r) * state.get('g', 0) + r * g
    g2 = (1 - r) * state.get('g2', 0) + r * g * g
    x = gm * gm / (g2 + eps)
    state.update(g=gm, g2=g2, mem=1 + mem * (1 - x))
    return w - g * np.minimum(x, lr) / (np.sqrt(g2) + eps)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    check_against_reference(optimizers.SMORMS3(lr=0.1, eps=1e-4),
                            smorms3_step, dtype, lr=0.1, eps=1e-4)


def test_matches_chainer():
    rule = optimizers.SMORMS3(lr=0.1).create_update_rule()
    out, _ = run_rule(rule)
    np.testing.assert_allclose(out[0].ravel(), STEP1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    assert sorted(rule.state) == ['g', 'g2', 'mem']


def test_hyperparams():
    check_hyperparams(optimizers.SMORMS3, smorms3.SMORMS3Rule,
                      {'lr': 0.001, 'eps': 1e-16}, smorms3)


def test_train():
    assert train(optimizers.SMORMS3(lr=0.05)) < 1e-7  # Chainer: 1.8e-09


def test_serialize_resume():
    check_serialize_resume(optimizers.SMORMS3)
