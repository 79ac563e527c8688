import warnings

import numpy as np
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import msvag
from opt_harness import (check_against_reference, check_hyperparams,
                         run_rule, train)

# Chainer 7.8.1, float32.
STEP1 = [0.10522821545600891, 0.3305051922798157, 0.10251786559820175,
         0.10858974605798721, -0.2034008800983429, 0.27141982316970825]
STEP6 = [0.08988721668720245, -0.06901385635137558, 0.08068192005157471,
         0.11675448715686798, -0.12940022349357605, 0.09849387407302856]
STEP6_WD = [0.068593829870224, 0.09308446198701859, 0.10006486624479294,
            0.07613268494606018, -0.09937520325183868, 0.12890593707561493]


def msvag_step(w, g, state, t, lr, beta, eta, wd):
    m = beta * state.get('m', 0) + (1 - beta) * g
    v = beta * state.get('v', 0) + (1 - beta) * g * g
    state.update(m=m, v=v)
    mt, vt = m / (1 - beta ** t), v / (1 - beta ** t)
    rho = (1 - beta) * (1 + beta ** t) / ((1 + beta) * (1 - beta ** t))
    rho = min(rho, 1 - 1e-4)  # rho == 1 at t == 1
    s = (vt - mt * mt) / (1 - rho)
    factor = np.clip(mt * mt / (mt * mt + rho * s), 0, 1)
    return w - eta * (lr * factor * mt + wd * w)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_update_matches_formula(dtype):
    opt = optimizers.MSVAG(lr=0.2, beta=0.8, eta=0.5, weight_decay_rate=0.01)
    check_against_reference(opt, msvag_step, dtype, lr=0.2, beta=0.8,
                            eta=0.5, wd=0.01)


def test_matches_chainer():
    rule = optimizers.MSVAG().create_update_rule()
    out, _ = run_rule(rule)
    # the first step is plain SGD on the bias-corrected mean (= the grad)
    np.testing.assert_allclose(out[0].ravel(), STEP1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[5].ravel(), STEP6, rtol=1e-5, atol=1e-6)
    assert sorted(rule.state) == ['m', 'v']
    opt = optimizers.MSVAG(weight_decay_rate=0.1, eta=0.5)
    out, _ = run_rule(opt.create_update_rule())
    np.testing.assert_allclose(out[5].ravel(), STEP6_WD, rtol=1e-5,
                               atol=1e-6)


def test_first_step_float16_rounding():
    # Chainer 7.8.1: at t == 1 a one-ulp variance estimate damps the step.
    rule = optimizers.MSVAG(lr=1.).create_update_rule()
    p = chainer.Parameter(np.zeros(3, np.float16))
    p.grad = np.array([0.999, 0.997, 0.5], np.float16)
    rule.update(p)
    np.testing.assert_allclose(-p.array / p.grad, [0.0925, 0, 1], atol=1e-3)


def test_zero_gradient_is_finite():
    rule = optimizers.MSVAG().create_update_rule()
    p = chainer.Parameter(np.ones(3))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        for _ in range(3):
            p.grad = np.zeros(3)
            rule.update(p)
    np.testing.assert_array_equal(p.array, np.ones(3))


def test_hyperparams():
    check_hyperparams(optimizers.MSVAG, msvag.MSVAGRule,
                      {'lr': 0.1, 'beta': 0.9, 'eta': 1.0,
                       'weight_decay_rate': 0}, msvag)


def test_train():
    assert train(optimizers.MSVAG()) < 1e-7  # Chainer: 9.4e-09


def test_resume_starts_beta_power_again_as_chainer():
    # Chainer 7.8.1 keeps beta ** t as a running product that it does not
    # save: a loaded optimizer starts it again at beta, so its next step
    # differs from the uninterrupted run's (values printed by Chainer)
    import io
    import chainer.functions as F
    import chainer.links as L
    from chainer import serializers

    def model():
        np.random.seed(0)
        m = chainer.Chain()
        with m.init_scope():
            m.l = L.Linear(3, 2, initialW=np.random.randn(2, 3).astype('f'),
                           initial_bias=np.random.randn(2).astype('f'))
        return m

    def lossf(m, x, t):
        return F.sum((m.l(x) - t) ** 2)
    np.random.seed(1)
    x = np.random.randn(4, 3).astype(np.float32)
    t = np.random.randn(4, 2).astype(np.float32)
    m = model()
    opt = optimizers.MSVAG().setup(m)
    for _ in range(2):
        opt.update(lossf, m, x, t)
    bio = io.BytesIO()
    serializers.save_npz(bio, opt)
    assert not any('beta_power' in k for k in np.load(
        io.BytesIO(bio.getvalue())).files)
    m2 = model()
    opt2 = optimizers.MSVAG().setup(m2)
    bio.seek(0)
    serializers.load_npz(bio, opt2)
    m2.l.W.array[...] = m.l.W.array
    m2.l.b.array[...] = m.l.b.array
    opt.update(lossf, m, x, t)
    opt2.update(lossf, m2, x, t)
    np.testing.assert_allclose(m.l.W.array[0], [-1.0214335918426514,
                                                1.2075002193450928,
                                                0.716529369354248],
                               rtol=1e-6)
    np.testing.assert_allclose(m2.l.W.array[0], [-1.6926652193069458,
                                                 2.2244837284088135,
                                                 -0.8013684749603271],
                               rtol=1e-6)


def test_rounds_as_chainer():
    # Chainer 7.8.1 keeps beta ** t as a running product and computes rho
    # unsimplified; both show in the last bit of float32 parameters.
    rule = optimizers.MSVAG().create_update_rule()
    p = chainer.Parameter(np.array([1.0, -2.0, 3.0], np.float32))
    for i in range(4):
        p.grad = (np.array([0.5, -1.0, 2.0], np.float32) * p.array +
                  np.float32(0.1 * (i % 3)))
        rule.update(p)
    assert p.array.tolist() == [0.7858688831329346, -2.887064218521118,
                                0.9688774347305298]
