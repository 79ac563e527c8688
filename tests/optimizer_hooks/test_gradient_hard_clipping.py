import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer import optimizer_hooks, optimizers

W = np.array([1., -2., 3.], np.float32)
G = np.array([-3., 0.5, 2.], np.float32)


def updated_grad(hook, dtype=np.float32):
    rule = optimizers.SGD(lr=1.).create_update_rule()
    rule.add_hook(hook)
    p = chainer.Parameter(W.astype(dtype))
    p.grad = G.astype(dtype)
    rule.update(p)
    return W - p.array


def test_attributes():
    hook = optimizer_hooks.GradientHardClipping(-1, 2)
    assert (hook.lower_bound, hook.upper_bound) == (-1, 2)
    assert (hook.name, hook.timing, hook.call_for_each_param) == \
        ('GradientHardClipping', 'pre', True)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_clip(dtype):
    np.testing.assert_allclose(
        updated_grad(optimizer_hooks.GradientHardClipping(-0.3, 0.4), dtype),
        [-0.3, 0.4, 0.4], rtol=1e-3)


def test_one_sided_and_crossed_bounds():
    # Chainer 7.8.1 (numpy.clip semantics)
    np.testing.assert_allclose(
        updated_grad(optimizer_hooks.GradientHardClipping(None, 1.)),
        [-3., 0.5, 1.])
    np.testing.assert_allclose(
        updated_grad(optimizer_hooks.GradientHardClipping(-1., None)),
        [-1., 0.5, 2.])
    np.testing.assert_allclose(
        updated_grad(optimizer_hooks.GradientHardClipping(2., -1.)),
        [-1., -1., -1.])


def test_loss_scaled_gradient_is_clipped_as_is():
    # Chainer 7.8.1 clips the still-scaled gradient: 24 -> 1.5, then / 8.
    class Model(chainer.Link):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.a = chainer.Parameter(np.array([1., 2.], np.float32))

    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(optimizer_hooks.GradientHardClipping(-1, 1.5))
    opt.set_loss_scale(8.)
    opt.update(lambda: F.sum(model.a * np.array([3., 0.], np.float32)))
    np.testing.assert_allclose(model.a.array, [0.8125, 2.])
