import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer import optimizer_hooks, optimizers

W = np.array([1., -2., 3.], np.float32)
G = np.array([-3., 0.5, 2.], np.float32)


class Model(chainer.Link):

    def __init__(self, dtype=np.float32):
        super().__init__()
        with self.init_scope():
            self.a = chainer.Parameter(W.astype(dtype))
            self.b = chainer.Parameter(np.array([[3.]], dtype))


def test_attributes():
    hook = optimizer_hooks.WeightDecay(0.1)
    assert hook.rate == 0.1
    assert hook.name == 'WeightDecay'
    assert hook.timing == 'pre'
    assert hook.call_for_each_param is True


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_on_update_rule(dtype):
    rule = optimizers.SGD(lr=1.).create_update_rule()
    rule.add_hook(optimizer_hooks.WeightDecay(0.1))
    p = chainer.Parameter(W.astype(dtype))
    p.grad = G.astype(dtype)
    rule.update(p)
    np.testing.assert_allclose(p.array, W - (G + 0.1 * W), rtol=2e-3)
    assert p.array.dtype == dtype


def test_on_optimizer():
    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(optimizer_hooks.WeightDecay(0.5))
    model.a.grad = G.copy()
    model.b.grad = np.array([[4.]], np.float32)
    opt.update()
    np.testing.assert_allclose(model.a.array, W - (G + 0.5 * W))
    np.testing.assert_allclose(model.b.array, [[3. - (4. + 1.5)]])


def test_with_loss_scale():
    # The decay is scaled with the still-scaled gradient (Chainer 7.8.1:
    # a -> [-2.5, 1.], b -> [[-2.5]]).
    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(optimizer_hooks.WeightDecay(0.5))
    opt.set_loss_scale(8.)
    opt.update(lambda: F.sum(model.a * np.array([3., 0., 0.], np.float32)) +
               F.sum(model.b * 4))
    np.testing.assert_allclose(model.a.array, [-2.5, -1., 1.5])
    np.testing.assert_allclose(model.b.array, [[-2.5]])


def test_skips_missing_grad():
    rule = optimizers.SGD().create_update_rule()
    hook = optimizer_hooks.WeightDecay(0.1)
    p = chainer.Parameter(W.copy())
    p.cleargrad()
    hook(rule, p)
    assert p.grad is None
