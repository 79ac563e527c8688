import numpy as np
import pytest

import chainer
from chainer import optimizer_hooks, optimizers

W = np.array([1., -2., 0.], np.float32)
G = np.array([-3., 0.5, 2.], np.float32)


def test_attributes():
    hook = optimizer_hooks.Lasso(0.1)
    assert (hook.rate, hook.name, hook.timing, hook.call_for_each_param) == \
        (0.1, 'Lasso', 'pre', True)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_on_update_rule(dtype):
    rule = optimizers.SGD(lr=1.).create_update_rule()
    rule.add_hook(optimizer_hooks.Lasso(0.1))
    p = chainer.Parameter(W.astype(dtype))
    p.grad = G.astype(dtype)
    rule.update(p)
    # sign(0) = 0: a zero weight gets no L1 push
    np.testing.assert_allclose(p.array, W - (G + 0.1 * np.sign(W)),
                               rtol=1e-3)


def test_on_optimizer_post_timing():
    class Model(chainer.Link):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.a = chainer.Parameter(W.copy())

    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(optimizer_hooks.Lasso(0.5), timing='post')
    model.a.grad = G.copy()
    opt.update()
    # a post hook runs after the update: it changes the gradient only
    np.testing.assert_allclose(model.a.array, W - G)
    np.testing.assert_allclose(model.a.grad, G + 0.5 * np.sign(W - G))
