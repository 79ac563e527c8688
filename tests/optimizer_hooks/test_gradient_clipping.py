import numpy as np
import pytest

import chainer
from chainer import optimizer_hooks, optimizers


class Model(chainer.Link):

    def __init__(self, dtype=np.float32):
        super().__init__()
        with self.init_scope():
            self.a = chainer.Parameter(np.array([1., 2.], dtype))
            self.b = chainer.Parameter(np.array([[3.]], dtype))
            self.c = chainer.Parameter(np.array([5.], dtype))


def run(threshold, dtype=np.float32):
    model = Model(dtype)
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(optimizer_hooks.GradientClipping(threshold))
    model.a.grad = np.array([3., 0.], dtype)
    model.b.grad = np.array([[4.]], dtype)
    model.c.cleargrad()  # a missing gradient counts as zero
    opt.update()
    return model


def test_attributes():
    hook = optimizer_hooks.GradientClipping(2.)
    assert (hook.threshold, hook.name, hook.timing) == \
        (2., 'GradientClipping', 'pre')
    assert not getattr(hook, 'call_for_each_param', False)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_clips_global_norm(dtype):
    model = run(0.5, dtype)  # norm 5 -> every gradient scaled by 0.1
    np.testing.assert_allclose(model.a.array, [0.7, 2.], rtol=1e-3)
    np.testing.assert_allclose(model.b.array, [[2.6]], rtol=1e-3)
    np.testing.assert_allclose(model.c.array, [5.])


def test_below_threshold_unchanged():
    model = run(100.)
    np.testing.assert_allclose(model.a.array, [-2., 2.])
    np.testing.assert_allclose(model.b.array, [[-1.]])


def test_zero_gradients():
    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(optimizer_hooks.GradientClipping(1.))
    for p in model.params():
        p.grad = np.zeros_like(p.array)
    opt.update()
    np.testing.assert_allclose(model.a.array, [1., 2.])
