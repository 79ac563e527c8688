"""Every optimizer, alone and with each optimizer hook, takes the same steps
on a GPU as on NumPy (marked gpu: the ``gpu_device`` fixture)."""

import numpy
import pytest

import chainer
from chainer import optimizer_hooks
from chainer import optimizers
from chainer import testing
import opt_harness

OPTIMIZERS = [getattr(optimizers, name) for name in sorted(dir(optimizers))
              if isinstance(getattr(optimizers, name), type)]
HOOKS = {
    'none': lambda: None,
    'weight_decay': lambda: optimizer_hooks.WeightDecay(1e-2),
    'lasso': lambda: optimizer_hooks.Lasso(1e-2),
    'clipping': lambda: optimizer_hooks.GradientClipping(0.5),
    'hard_clipping': lambda: optimizer_hooks.GradientHardClipping(-0.2, 0.2),
    'lars': lambda: optimizer_hooks.GradientLARS(1e-2, weight_decay=1e-3),
}
DTYPES = (numpy.float16, numpy.float32, numpy.float64)
# RMSprop refuses float16 with its default eps (1e-8 rounds to 0 there).
KWARGS = {(optimizers.RMSprop, numpy.float16): dict(eps=1e-4)}
# MSVAG's first steps divide the variance estimate vt - mt^2 (a difference
# of near-equal numbers) by 1 - rho (1e-4 at t = 1), so the last bits of a
# CuPy kernel's rounding (fused multiply-adds) show 1e4 times larger: seen
# on an H200, 6.5e-5 in float32 and 0.012 in float16 after three steps.
TOL = {(optimizers.MSVAG, numpy.float16): dict(atol=5e-2, rtol=5e-2),
       (optimizers.MSVAG, numpy.float32): dict(atol=1e-4, rtol=1e-3)}


def train(cls, hook, dtype, device, steps=3):
    model = opt_harness.Regression(dtype).to_device(device)
    opt = cls(**KWARGS.get((cls, dtype), {})).setup(model)
    if hook is not None:
        opt.add_hook(hook)
    x, y = device.send(opt_harness.regression_data(dtype))
    for _ in range(steps):
        opt.update(opt_harness.lossfun, model, x, y)
    return model


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('hook', sorted(HOOKS))
@pytest.mark.parametrize('cls', OPTIMIZERS, ids=lambda c: c.__name__)
def test_same_steps_as_numpy(cls, hook, dtype, gpu_device):
    want = train(cls, HOOKS[hook](), dtype, chainer.get_device('@numpy'))
    got = train(cls, HOOKS[hook](), dtype, gpu_device)
    for (name, p), (_, q) in zip(sorted(want.namedparams()),
                                 sorted(got.namedparams())):
        assert q.device == gpu_device and q.dtype == dtype, name
        testing.assert_allclose(q.array, p.array, **TOL.get(
            (cls, dtype), opt_harness.TOL[dtype]))
        for key, value in q.update_rule.state.items():
            if hasattr(value, 'shape') and value.shape:
                assert gpu_device.is_array_supported(value), (name, key)


@pytest.mark.parametrize('dtype', DTYPES)
def test_gradient_noise(dtype, gpu_device):
    # Random, so only where the steps happen and that they stay finite.
    model = train(optimizers.SGD, optimizer_hooks.GradientNoise(0.01), dtype,
                  gpu_device)
    for _, p in model.namedparams():
        assert gpu_device.is_array_supported(p.array)
        assert bool(gpu_device.xp.isfinite(p.array).all())
