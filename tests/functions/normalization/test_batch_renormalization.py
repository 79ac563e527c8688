import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from op_harness import check_op, on_device


def _renorm_ref(x, g, b, rm, rv, rmax, dmax, eps=2e-5):
    axes = (0,) + tuple(range(2, x.ndim))
    keep = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    mean = x.mean(axis=axes, keepdims=True)
    std = numpy.sqrt(x.var(axis=axes, keepdims=True) + eps)
    rstd = numpy.sqrt(rv.reshape(keep) + eps)
    r = numpy.clip(std / rstd, 1 / rmax, rmax)
    d = numpy.clip((mean - rm.reshape(keep)) / rstd, -dmax, dmax)
    return ((x - mean) / std * r + d) * g.reshape(keep) + b.reshape(keep)


@pytest.mark.parametrize('shape', [(5, 3), (3, 2, 2)])
def test_batch_renormalization(shape):
    # r and d are constants in the gradient: keep them clipped here so
    # that the numerical gradient agrees (see test_reference_values).
    c = shape[1]
    rm = numpy.array([1., -1., 2.])[:c]
    rv = numpy.array([0.1, 4., 9.])[:c]

    def make(rng, dt):
        return (rng.randn(*shape).astype(dt), rng.uniform(0.5, 1.5, c)
                .astype(dt), rng.randn(c).astype(dt))

    def f(x, g, b):
        rm_x, rv_x = on_device(rm.astype(x.dtype), rv.astype(x.dtype))
        return F.batch_renormalization(
            x, g, b, 1.2, 0.1, running_mean=rm_x, running_var=rv_x)

    check_op(f, make, lambda x, g, b: _renorm_ref(x, g, b, rm, rv, 1.2, 0.1),
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_statistics_update_only_when_asked():
    rng = numpy.random.RandomState(0)
    x, g, b = rng.randn(5, 3), rng.randn(3), rng.randn(3)
    rm, rv = rng.randn(3) * 0.1, rng.rand(3) + 0.5
    rm0, rv0 = rm.copy(), rv.copy()
    y = F.batch_renormalization(x, g, b, 1.5, 0.3, running_mean=rm,
                                running_var=rv, decay=0.8)
    assert y.creator.label == 'BatchRenormalizationFunction'
    testing.assert_allclose(rm, rm0)
    y = F.batch_renormalization(x, g, b, 1.5, 0.3, running_mean=rm,
                                running_var=rv, decay=0.8,
                                update_statistics=True)
    testing.assert_allclose(y.array, _renorm_ref(x, g, b, rm0, rv0, 1.5, .3))
    testing.assert_allclose(rm, 0.8 * rm0 + 0.2 * x.mean(0))
    testing.assert_allclose(rv, 0.8 * rv0 + 0.2 * x.var(0) * 5 / 4)


def test_reference_values():
    # Computed with Chainer 7.8.1.
    rng = numpy.random.RandomState(0)
    x, g, b = rng.randn(5, 3), rng.randn(3), rng.randn(3)
    rm, rv = rng.randn(3) * 0.1, rng.rand(3) + 0.5
    y = F.batch_renormalization(x, g, b, 1.1, 0.05, running_mean=rm,
                                running_var=rv, decay=0.8,
                                update_statistics=True)
    testing.assert_allclose(y.array[0], [0.57191795, -0.9238193, -2.72822236])
    testing.assert_allclose(rm, [0.2973563, 0.16443796, 0.01248192])
    testing.assert_allclose(rv, [0.87875542, 0.98332232, 0.59454111])


def test_reference_gradient_treats_r_and_d_as_constants():
    # Computed with Chainer 7.8.1 (r and d not clipped here).
    rng = numpy.random.RandomState(0)
    x, g, b = rng.randn(5, 3), rng.randn(3), rng.randn(3)
    rm, rv = rng.randn(3) * 0.1, rng.rand(3) + 0.5
    xv, gv = chainer.Variable(x), chainer.Variable(g)
    y = F.batch_renormalization(xv, gv, b, 1.1, 0.05, running_mean=rm,
                                running_var=rv)
    y.grad = numpy.arange(15.).reshape(5, 3) / 7
    y.backward()
    testing.assert_allclose(xv.grad[:2], [[-0.21043108, -1.6782588, 0.25509139],
                                          [0.1370104, 0.18965415, 0.05627429]])
    testing.assert_allclose(gv.grad, [-2.00068543, -0.98890952, 1.04333239])


def test_running_statistics_required():
    x = numpy.ones((2, 3))
    with pytest.raises(TypeError, match='running_mean is required'):
        F.batch_renormalization(x, x[0], x[0], 1., 0.)


def test_fixed_batch_renormalization():
    def make(rng, dt):
        return (rng.randn(3, 2).astype(dt), rng.randn(2).astype(dt),
                rng.randn(2).astype(dt), rng.randn(2).astype(dt),
                rng.uniform(0.5, 1.5, 2).astype(dt))

    def fixed(*args):
        # deprecated, as in Chainer
        with pytest.warns(DeprecationWarning, match='fixed_batch_normalization'):
            return F.fixed_batch_renormalization(*args)

    check_op(fixed, make,
             lambda x, g, b, m, v: (x - m) / numpy.sqrt(v + 2e-5) * g + b,
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_double_backprop():
    x = chainer.Variable(numpy.random.RandomState(1).randn(4, 2))
    y = F.batch_renormalization(x, numpy.ones(2), numpy.zeros(2), 2., 1.,
                                running_mean=numpy.zeros(2),
                                running_var=numpy.ones(2))
    gx, = chainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx * gx)], [x])
    assert ggx.shape == (4, 2)


def test_missing_running_statistics_message_is_chainers():
    x = numpy.ones((2, 3), numpy.float32)
    g = numpy.ones(3, numpy.float32)
    with pytest.raises(TypeError) as e:
        F.batch_renormalization(x, g, g, 1.5, 0.5)
    assert str(e.value) == 'running_mean is required'
    with pytest.raises(TypeError) as e:
        F.batch_renormalization(x, g, g, 1.5, 0.5, running_mean=g * 0)
    assert str(e.value) == 'running_var is required'


def test_bits_match_chainer():
    # Chainer normalizes by dividing by std, then scales by r and shifts
    # by d; its x gradient divides gamma * r by std and the correction by
    # the count (float32 values of Chainer 7.8.1).
    numpy.random.seed(0)
    x = chainer.Variable(
        (numpy.random.randn(2, 2, 5, 5) * 3 + 1).astype(numpy.float32))
    g = chainer.Variable(numpy.array([0.7, 1.3], numpy.float32))
    b = chainer.Variable(numpy.array([0.1, -0.4], numpy.float32))
    y = F.batch_renormalization(
        x, g, b, 1.5, 0.1, eps=1e-3,
        running_mean=numpy.array([0.3, -0.2], numpy.float32),
        running_var=numpy.array([1.5, 0.7], numpy.float32))
    y.grad = numpy.random.randn(*y.shape).astype(numpy.float32)
    y.backward()
    assert y.array.ravel()[:6].tolist() == [
        1.9402600526809692, 0.49283143877983093, 1.106848120689392,
        2.446305274963379, 2.050104856491089, -0.9689662456512451]
    assert x.grad.ravel()[[16, 20, 22, 26]].tolist() == [
        0.273244708776474, 0.0584070160984993, 0.04164859279990196,
        -0.26426851749420166]
