import numpy as np
import pytest

from chainer import optimizers
from chainer.optimizers import ada_delta
from opt_harness import (check_against_reference, check_hyperparams,
                         check_serialize_resume, run_rule, train)

# Chainer 7.8.1, AdaDelta(), float32, after 6 steps.
STEP6 = [0.09884032607078552, 0.40840664505958557, 0.1984882652759552,
         0.08245428651571274, -0.14201298356056213, 0.2721947431564331]


def adadelta_step(w, g, state, t, rho, eps):
    msg = rho * state.get('msg', 0) + (1 - rho) * g * g
    dx = np.sqrt((state.get('msdx', 0) + eps) / (msg + eps)) * g
    state['msg'] = msg
    state['msdx'] = rho * state.get('msdx', 0) + (1 - rho) * dx * dx
    return w - dx


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    check_against_reference(optimizers.AdaDelta(rho=0.9, eps=1e-3),
                            adadelta_step, dtype, rho=0.9, eps=1e-3)


def test_matches_chainer():
    rule = optimizers.AdaDelta().create_update_rule()
    out, _ = run_rule(rule)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    assert sorted(rule.state) == ['msdx', 'msg']


def test_hyperparams():
    check_hyperparams(optimizers.AdaDelta, ada_delta.AdaDeltaRule,
                      {'rho': 0.95, 'eps': 1e-6}, ada_delta)


def test_train():
    # AdaDelta starts with tiny steps (sqrt(eps) scale): slow but steady.
    loss = train(optimizers.AdaDelta())
    assert loss == pytest.approx(1.5942281, rel=1e-4)
    assert train(optimizers.AdaDelta(eps=1e-2), steps=100) < 0.1


def test_serialize_resume():
    check_serialize_resume(optimizers.AdaDelta)
