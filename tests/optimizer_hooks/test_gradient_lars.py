import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer import optimizer_hooks, optimizers


class Model(chainer.Link):

    def __init__(self, dtype=np.float32):
        super().__init__()
        with self.init_scope():
            self.a = chainer.Parameter(np.array([1., 2.], dtype))
            self.b = chainer.Parameter(np.array([[3.]], dtype))


def run(hook, dtype=np.float32, loss_scale=None):
    model = Model(dtype)
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.add_hook(hook)
    if loss_scale:
        opt.set_loss_scale(loss_scale)
    opt.update(lambda: F.sum(model.a * np.array([3., 0.], dtype)) +
               F.sum(model.b * 4))
    return model.a.array, model.b.array


def test_attributes():
    hook = optimizer_hooks.GradientLARS()
    assert (hook.threshold, hook.weight_decay, hook.eps) == (0.01, 0.0, 1e-9)
    assert (hook.name, hook.timing, hook.call_for_each_param) == \
        ('GradientLARS', 'pre', True)


def lars_reference(p, g, threshold, wd, eps=1e-9):
    pn, gn = np.linalg.norm(p), np.linalg.norm(g)
    rate = pn / (eps + gn + wd * pn) if pn > threshold else 1.
    return rate * (g + wd * p)


# Expected values from Chainer 7.8.1.
@pytest.mark.parametrize('threshold, wd, a, b', [
    (0.01, 0.5, [-0.9004793, 1.457006], [[0.]]),
    (1.0, 0.0, [-1.236068, 2.], [[0.]]),
    (2.5, 0.0, [-2., 2.], [[0.]]),   # the rate applies when |p| > threshold
    (3.5, 0.0, [-2., 2.], [[-1.]]),
    (3.1, 0.5, [-2.5, 1.], [[-2.5]]),
])
def test_matches_chainer(threshold, wd, a, b):
    got_a, got_b = run(optimizer_hooks.GradientLARS(threshold, wd))
    np.testing.assert_allclose(got_a, a, rtol=1e-6)
    np.testing.assert_allclose(got_b, b, atol=1e-6)
    p, g = np.array([1., 2.]), np.array([3., 0.])
    np.testing.assert_allclose(got_a, p - lars_reference(p, g, threshold, wd),
                               rtol=1e-6)


@pytest.mark.parametrize('dtype', [np.float16, np.float64])
def test_dtypes(dtype):
    a, b = run(optimizer_hooks.GradientLARS(0.01, 0.5), dtype)
    assert a.dtype == dtype
    np.testing.assert_allclose(a, [-0.9004793, 1.457006], rtol=2e-3)


def test_loss_scale():
    # Chainer 7.8.1 works on the still-scaled gradient.
    a, b = run(optimizer_hooks.GradientLARS(0.01, 0.5), loss_scale=8.)
    np.testing.assert_allclose(a, [0.72736883, 1.9888722], rtol=1e-6)
    np.testing.assert_allclose(b, [[2.625]], rtol=1e-6)
