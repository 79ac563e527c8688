import numpy as np
import pytest

import chainer
from chainer import optimizer_hooks, optimizers
from chainer.optimizer_hooks import gradient_noise

W = np.array([1., -2., 3.], np.float32)
G = np.array([-3., 0.5, 2.], np.float32)


def test_attributes():
    hook = optimizer_hooks.GradientNoise(0.3)
    assert hook.eta == 0.3
    assert hook.noise_func is gradient_noise.exponential_decay_noise
    assert (hook.name, hook.timing, hook.call_for_each_param) == \
        ('GradientNoise', 'pre', True)


def test_exponential_decay_noise():
    class Rule:
        t = 3

    hook = optimizer_hooks.GradientNoise(0.3)
    np.random.seed(1)
    got = gradient_noise.exponential_decay_noise(np, (2, 3), np.float32,
                                                 hook, Rule)
    np.random.seed(1)
    want = np.random.normal(0, np.sqrt(0.3 / 4 ** 0.55), (2, 3))
    assert got.dtype == np.float32 and got.shape == (2, 3)
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_adds_noise_scaled_by_rule_t(dtype):
    rule = optimizers.SGD(lr=1.).create_update_rule()
    rule.t = 2  # the update makes it 3, which the noise uses
    rule.add_hook(optimizer_hooks.GradientNoise(0.3))
    p = chainer.Parameter(W.astype(dtype))
    p.grad = G.astype(dtype)
    np.random.seed(0)
    rule.update(p)
    np.random.seed(0)
    noise = np.random.normal(0, np.sqrt(0.3 / 4 ** 0.55), 3).astype(dtype)
    np.testing.assert_allclose(p.array, W - (G + noise), rtol=1e-3,
                               atol=1e-3)


def test_custom_noise_func():
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((xp, shape, dtype, hook.eta, rule.t))
        return xp.full(shape, 0.5, dtype)

    rule = optimizers.SGD(lr=1.).create_update_rule()
    rule.add_hook(optimizer_hooks.GradientNoise(0.1, noise_func=noise))
    p = chainer.Parameter(W.copy())
    p.grad = G.copy()
    rule.update(p)
    np.testing.assert_allclose(p.array, W - G - 0.5)
    assert calls == [(np, (3,), np.dtype(np.float32), 0.1, 1)]
