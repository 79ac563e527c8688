import io

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import link_hooks


def _sigma(w):
    return numpy.linalg.svd(w.reshape(w.shape[0], -1), compute_uv=False)[0]


def test_timer_hook():
    model = chainer.Sequential(L.Linear(3, 2), L.Linear(2, 2))
    with link_hooks.TimerHook() as hook:
        model(numpy.ones((1, 3), numpy.float32))
    names = [n for n, _ in hook.call_history]
    assert names == ['Linear', 'Linear', 'Sequential']
    assert hook.total_time() == hook.call_history[-1][1]
    summary = hook.summary()
    assert summary['Linear']['occurrence'] == 2
    buf = io.StringIO()
    hook.print_report(file=buf)
    lines = buf.getvalue().splitlines()
    assert lines[0] == '  LinkName  ElapsedTime  Occurrence'
    assert lines[1].split()[0] == 'Linear' and lines[1].split()[2] == '2'


def test_spectral_normalization_registers_and_normalizes():
    numpy.random.seed(0)
    link = L.Linear(3, 4)
    hook = link_hooks.SpectralNormalization(n_power_iteration=50)
    link.add_hook(hook)
    assert 'W_u' in link._persistent and link.W_u.shape == (4,)
    x = numpy.eye(3, dtype=numpy.float32)
    y = link(x)
    w_bar = y.array.T - link.b.array[:, None]
    numpy.testing.assert_allclose(_sigma(w_bar), 1, rtol=1e-4)
    # The original weight is back after the forward.
    assert isinstance(link.W, chainer.Parameter)
    # u is the leading left singular vector (up to sign).
    u = numpy.linalg.svd(link.W.array)[0][:, 0]
    numpy.testing.assert_allclose(abs(link.W_u @ u), 1, rtol=1e-4)
    link.delete_hook(hook.name)
    assert not hasattr(link, 'W_u') and 'W_u' not in link._persistent


def test_spectral_normalization_gradient_flows_through_sigma():
    link = L.Linear(3, 2)
    link.add_hook(link_hooks.SpectralNormalization())
    x = numpy.random.randn(4, 3).astype(numpy.float32)
    link.cleargrads()
    y = link(x)
    creator = y.creator.inputs[1].creator
    assert creator is not None  # W_bar is computed, not a leaf
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert numpy.isfinite(link.W.grad).all()
    assert numpy.abs(link.W.grad).sum() > 0


def test_spectral_normalization_train_updates_u_only_in_training():
    link = L.Linear(3, 4)
    link.add_hook(link_hooks.SpectralNormalization())
    x = numpy.ones((1, 3), numpy.float32)
    u0 = link.W_u.copy()
    with chainer.using_config('train', False):
        link(x)
    numpy.testing.assert_array_equal(link.W_u, u0)
    link(x)
    assert not numpy.array_equal(link.W_u, u0)


def test_spectral_normalization_gamma_factor_and_axes():
    numpy.random.seed(1)
    link = L.Linear(3, 4)
    link.add_hook(link_hooks.SpectralNormalization(use_gamma=True))
    assert link.gamma.shape == ()
    numpy.testing.assert_allclose(link.gamma.array, _sigma(link.W.array),
                                  rtol=1e-5)
    deconv = L.Deconvolution2D(2, 3, 2)
    hook = link_hooks.SpectralNormalization()
    deconv.add_hook(hook)
    assert hook.axis == 1 and deconv.W_u.shape == (3,)
    conv = L.Convolution2D(2, 3, 2)
    conv.add_hook(link_hooks.SpectralNormalization(factor=2.))
    assert conv.W_u.shape == (3,)
    y = conv(numpy.random.randn(1, 2, 3, 3).astype(numpy.float32))
    assert y.shape == (1, 3, 2, 2)


def test_spectral_normalization_lazy_weight():
    link = L.Linear(None, 4)
    link.add_hook(link_hooks.SpectralNormalization())
    assert not hasattr(link, 'W_u')
    y = link(numpy.ones((2, 3), numpy.float32))
    assert y.shape == (2, 4) and link.W_u.shape == (4,)


def test_spectral_normalization_errors():
    with pytest.raises(ValueError, match='n_power_iteration'):
        link_hooks.SpectralNormalization(n_power_iteration=0)
    with pytest.raises(ValueError, match="Weight 'V' does not exist"):
        L.Linear(3, 4).add_hook(
            link_hooks.SpectralNormalization(weight_name='V'))
    with pytest.raises(NotImplementedError, match='context manager'):
        with link_hooks.SpectralNormalization():
            pass


def test_spectral_normalization_in_recomputing_reuses_the_vectors():
    link = L.Linear(5, 4)
    hook = link_hooks.SpectralNormalization()
    link.add_hook(hook)
    x = numpy.ones((2, 5), numpy.float32)
    y1 = link(x).array
    u1, v1 = link.W_u.copy(), hook.v.copy()
    with chainer.using_config('in_recomputing', True):
        y2 = link(x).array
    numpy.testing.assert_array_equal(link.W_u, u1)
    numpy.testing.assert_array_equal(hook.v, v1)
    numpy.testing.assert_array_equal(y1, y2)


def test_spectral_normalization_rejects_an_empty_weight_axis():
    with pytest.raises(ValueError, match=r'W\.shape\[0\] > 0'):
        L.Linear(10, 0).add_hook(link_hooks.SpectralNormalization())


def test_weight_standardization():
    link = L.Linear(3, 4)
    link.add_hook(link_hooks.WeightStandardization())
    x = numpy.eye(3, dtype=numpy.float32)
    y = link(x)
    w = y.array.T - link.b.array[:, None]
    W = link.W.array.astype(numpy.float64)
    expected = (W - W.mean(1, keepdims=True)) / numpy.sqrt(
        W.var(1, keepdims=True) + 1e-5)
    numpy.testing.assert_allclose(w, expected, rtol=1e-5, atol=1e-5)
    link.cleargrads()
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert numpy.isfinite(link.W.grad).all()
    assert isinstance(link.W, chainer.Parameter)
    with pytest.raises(ValueError, match='does not exist'):
        L.Linear(3, 4).add_hook(
            link_hooks.WeightStandardization(weight_name='V'))
    with pytest.raises(NotImplementedError):
        with link_hooks.WeightStandardization():
            pass


def test_weight_standardization_conv_and_lazy():
    conv = L.Convolution2D(None, 3, 2)
    conv.add_hook(link_hooks.WeightStandardization(eps=1e-3))
    y = conv(numpy.random.randn(1, 2, 3, 3).astype(numpy.float32))
    assert y.shape == (1, 3, 2, 2)


def test_spectral_normalization_helpers():
    import chainer
    from chainer.link_hooks import spectral_normalization as sn
    rng = numpy.random.RandomState(0)
    w = rng.randn(3, 4).astype(numpy.float32)
    u0 = rng.randn(3).astype(numpy.float32)
    u_in = u0.copy()
    numpy.testing.assert_allclose(
        sn.l2normalize(numpy, u0, 0.0), u0 / numpy.linalg.norm(u0), rtol=1e-6)
    u, v = sn.update_approximate_vectors(chainer.Variable(w), u_in, 20, 1e-12)
    numpy.testing.assert_array_equal(u_in, u0)  # not modified in place
    assert u.shape == (3,) and v.shape == (4,)
    wv = chainer.Variable(w)
    sigma = sn.calculate_max_singular_value(wv, u, v)
    numpy.testing.assert_allclose(
        sigma.array, numpy.linalg.svd(w, compute_uv=False)[0], rtol=1e-4)
    sigma.backward()
    # d(u^T W v)/dW = u v^T
    numpy.testing.assert_allclose(wv.grad, numpy.outer(u, v), rtol=1e-5)
    hook = sn.SpectralNormalization()
    assert hook.reshape_W(chainer.Variable(numpy.zeros((2, 3, 4), 'f'))).shape == (2, 12)


def test_timer_hook_unit_table():
    from chainer.link_hooks import TimerHook
    from chainer.function_hooks import TimerHook as FunctionTimerHook
    assert TimerHook.table == {'sec': 1, 'ms': 1000, 'us': 10 ** 6, 'ns': 10 ** 9}
    assert FunctionTimerHook.table == TimerHook.table


def test_spectral_normalization_starts_from_chainer_draws():
    # Chainer's values: u is the raw normal draw (not normalized) and gamma
    # the float32 SVD's largest singular value.
    numpy.random.seed(0)
    link = L.Linear(3, 2)
    link.add_hook(link_hooks.SpectralNormalization(use_gamma=True))
    assert link.W_u.dtype == numpy.float32
    assert link.W_u.tobytes().hex() == 'ff38733f62fd1abe'
    assert link.gamma.shape == ()
    assert link.gamma.array.tobytes().hex() == '21aff93f'


def test_spectral_normalization_factor_divides_sigma_as_chainer():
    # A 1x1 weight: no sums, so the bits are the arithmetic's own (the raw
    # u draw, and W / (sigma / factor) rather than W / sigma * factor).
    x = numpy.array([[1.]], numpy.float32)
    got = []
    for seed in (0, 2, 11):
        numpy.random.seed(seed)
        w = numpy.array([[numpy.random.uniform(0.1, 3)]], numpy.float32)
        link = L.Linear(1, 1, initialW=w)
        link.add_hook(link_hooks.SpectralNormalization(factor=3.))
        got.append(link(x).array[0, 0].tobytes().hex())
    assert got == ['11004040', 'd3004040', 'c6024040']


def test_weight_standardization_rounds_as_chainer():
    # Chainer standardizes by a one-group group normalization; one-hot
    # inputs read the weight back without sums.
    numpy.random.seed(2)
    link = L.Linear(3, 4)
    link.add_hook(link_hooks.WeightStandardization())
    w = link(numpy.eye(3, dtype=numpy.float32)).array.T
    numpy.testing.assert_array_equal(w, numpy.array([
        [0.49912757, 0.8963417, -1.3954692],
        [1.3623061, -1.0098932, -0.35241294],
        [1.4074289, -0.82323456, -0.5841941],
        [-1.1874728, -0.07139909, 1.2588718]], numpy.float32))
