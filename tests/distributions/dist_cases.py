"""The checks every distribution test module shares.

A test module is a spec: module-level data (``PARAMS``, ``PARAMS2``, ``X``,
``Q``, ``BATCH_SHAPE``, ``EVENT_SHAPE``, ``SUPPORT``, ``RTOL64``,
``EXPECTED``, ``KL``, ``SAMPLE``, ``REPARAMETERIZED``, ``NOT_IMPLEMENTED``,
optionally ``NO_SAMPLE_GRADS``, ``X_DTYPE`` and ``SAMPLE_DTYPE``) and
``make(*params)``.  ``from dist_cases import *`` runs the tests below on it
(the ``spec`` fixture of conftest.py is the module).
"""

import numpy
import pytest

from chainer import backend
from chainer import gradient_check
from chainer.distribution import kl_divergence

__all__ = ['test_values', 'test_params', 'test_not_implemented', 'test_kl',
           'test_sample', 'test_sample_shapes', 'test_log_prob_grad',
           'test_entropy_grad', 'test_kl_grad', 'test_sample_grad',
           'test_sample_float16_on_gpu']

PROPERTIES = ['mean', 'variance', 'stddev', 'mode', 'entropy', 'covariance']
_DTYPES = pytest.mark.parametrize('dtype', [numpy.float64, numpy.float32])


def arrays(values, dtype=numpy.float64):
    return [numpy.array(v, dtype) for v in values]


def check_grad(f, params, no_grads=None):
    params = tuple(params)
    shape = f(*params).shape
    gy = numpy.random.RandomState(0).uniform(0.5, 1.5, shape)
    gradient_check.check_backward(
        f, params, gy, eps=1e-5, atol=1e-6, rtol=1e-6, no_grads=no_grads)


def _x(spec, dtype):
    return numpy.array(spec.X, getattr(spec, 'X_DTYPE', dtype))


def _rtol(spec, dtype):
    return spec.RTOL64 if dtype == numpy.float64 else 2e-5


@_DTYPES
def test_values(spec, dtype):
    rtol = _rtol(spec, dtype)
    d = spec.make(*arrays(spec.PARAMS, dtype))
    assert d.batch_shape == spec.BATCH_SHAPE
    assert d.event_shape == spec.EVENT_SHAPE
    if spec.SUPPORT is not None:
        assert d.support == spec.SUPPORT
    assert d.xp is numpy
    for name, expected in spec.EXPECTED.items():
        if name in PROPERTIES:
            y = getattr(d, name)
        elif name == 'icdf':
            y = d.icdf(numpy.array(spec.Q, dtype))
        else:
            y = getattr(d, name)(_x(spec, dtype))
        assert y.dtype == dtype, name
        numpy.testing.assert_allclose(
            y.array, expected, rtol=rtol, atol=rtol, err_msg=name)


def test_params(spec):
    d = spec.make(*arrays(spec.PARAMS))
    assert all(v.dtype == numpy.float64 for v in d.params.values())


def test_not_implemented(spec):
    d = spec.make(*arrays(spec.PARAMS))
    for name in spec.NOT_IMPLEMENTED:
        with pytest.raises(NotImplementedError):
            if name in PROPERTIES or name == 'support':
                getattr(d, name)
            else:
                getattr(d, name)(_x(spec, numpy.float64))


@_DTYPES
def test_kl(spec, dtype):
    if spec.KL is None:
        pytest.skip('no KL divergence registered')
    rtol = _rtol(spec, dtype)
    kl = kl_divergence(spec.make(*arrays(spec.PARAMS, dtype)),
                       spec.make(*arrays(spec.PARAMS2, dtype)))
    assert kl.dtype == dtype
    assert kl.shape == spec.BATCH_SHAPE
    numpy.testing.assert_allclose(kl.array, spec.KL, rtol=rtol, atol=rtol)


def test_sample(spec):
    d = spec.make(*arrays(spec.PARAMS))
    numpy.random.seed(0)
    s = d.sample((2,))
    assert s.shape == (2,) + spec.BATCH_SHAPE + spec.EVENT_SHAPE
    assert s.dtype == getattr(spec, 'SAMPLE_DTYPE', numpy.float64)
    # The same random stream as Chainer.
    numpy.testing.assert_allclose(s.array, spec.SAMPLE, rtol=1e-6, atol=1e-6)
    numpy.random.seed(0)
    numpy.testing.assert_array_equal(d.sample((2,)).array, s.array)
    assert (s.creator is not None) == spec.REPARAMETERIZED


def test_sample_float16_on_gpu(spec, gpu_device):
    # Sampling with float16 parameters on the device: the sample stays
    # there, in float16, and its mean is the distribution's (to 6 standard
    # errors of the mean) where both moments are finite.
    d = spec.make(*gpu_device.send(arrays(spec.PARAMS, numpy.float16)))
    n = 4000
    s = d.sample((n,))
    assert gpu_device.is_array_supported(s.array)
    assert s.shape == (n,) + spec.BATCH_SHAPE + spec.EVENT_SHAPE
    assert s.dtype == getattr(spec, 'SAMPLE_DTYPE', numpy.float16)
    mean = numpy.asarray(spec.EXPECTED.get('mean', numpy.nan))
    var = numpy.asarray(spec.EXPECTED.get('variance', numpy.nan))
    if numpy.isfinite(mean).all() and numpy.isfinite(var).all() and \
            mean.shape == spec.BATCH_SHAPE + spec.EVENT_SHAPE:
        got = backend.CpuDevice().send(s.array).astype(numpy.float64)
        numpy.testing.assert_allclose(
            got.mean(0), mean, rtol=1e-2,
            atol=6 * numpy.sqrt(var.max() / n) + 1e-2)


def test_sample_shapes(spec):
    d = spec.make(*arrays(spec.PARAMS, numpy.float32))
    shape = spec.BATCH_SHAPE + spec.EVENT_SHAPE
    assert d.sample().shape == shape
    assert d.sample((3, 2)).shape == (3, 2) + shape
    assert d.sample_n(0).shape == (0,) + shape
    assert d.sample(4).dtype == getattr(spec, 'SAMPLE_DTYPE', numpy.float32)


def test_log_prob_grad(spec):
    x = _x(spec, numpy.float64)
    check_grad(lambda *p: spec.make(*p).log_prob(x), arrays(spec.PARAMS))


def test_entropy_grad(spec):
    if 'entropy' in spec.NOT_IMPLEMENTED:
        pytest.skip('no entropy')
    check_grad(lambda *p: spec.make(*p).entropy, arrays(spec.PARAMS))


def test_kl_grad(spec):
    if spec.KL is None:
        pytest.skip('no KL divergence registered')
    n = len(spec.PARAMS)

    def f(*p):
        return kl_divergence(spec.make(*p[:n]), spec.make(*p[n:]))
    check_grad(f, arrays(spec.PARAMS) + arrays(spec.PARAMS2))


def test_sample_grad(spec):
    if not spec.REPARAMETERIZED:
        pytest.skip('samples are not differentiable')

    def f(*p):
        numpy.random.seed(1)
        return spec.make(*p).sample((2,))
    check_grad(f, arrays(spec.PARAMS),
               no_grads=getattr(spec, 'NO_SAMPLE_GRADS', None))
