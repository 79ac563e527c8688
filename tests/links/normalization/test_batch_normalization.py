import numpy
import pytest

import chainer
import chainer.links as L
from link_harness import (check_copies, check_param_grads, check_params,
                          roundtrip_npz)


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_persistents():
    link = L.BatchNormalization(3)
    check_params(link, {'/gamma': (3,), '/beta': (3,)})
    assert link._persistent == {'N', 'avg_mean', 'avg_var'}
    numpy.testing.assert_array_equal(link.avg_mean, numpy.zeros(3))
    numpy.testing.assert_array_equal(link.avg_var, numpy.ones(3))
    numpy.testing.assert_array_equal(link.gamma.array, numpy.ones(3))
    assert link.N == 0 and link.avg_mean.dtype == numpy.float32
    link = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    check_params(link, {})
    assert link.gamma is None and link.beta is None
    link = L.BatchNormalization(3, initial_avg_mean=numpy.array([1, 2, 3.]),
                                initial_avg_var=2, initial_gamma=2,
                                initial_beta=numpy.ones(3))
    numpy.testing.assert_array_equal(link.avg_mean, [1, 2, 3])
    assert link.avg_mean.dtype == numpy.float32
    numpy.testing.assert_array_equal(link.avg_var, [2, 2, 2])
    numpy.testing.assert_array_equal(link.gamma.array, [2, 2, 2])
    check_params(L.BatchNormalization((3, 4)),
                 {'/gamma': (3, 4), '/beta': (3, 4)})


def test_dtypes():
    link = L.BatchNormalization(3, dtype=numpy.float16)
    check_params(link, {'/gamma': (3,), '/beta': (3,)}, dtype=numpy.float16)
    assert link.avg_mean.dtype == numpy.float16
    with chainer.using_config('dtype', chainer.mixed16):
        link = L.BatchNormalization(3)
    assert link.avg_mean.dtype == numpy.float32
    link = L.BatchNormalization(2, dtype=numpy.float64)
    y = link(R(0, 3, 2).astype(numpy.float64))
    assert y.dtype == numpy.float64


def test_train_and_test_match_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.BatchNormalization(2, initial_gamma=R(1, 2),
                                initial_beta=R(2, 2))
    x = R(0, 3, 2, 2)
    y = link(x)
    assert type(y.creator).__name__ == 'BatchNormalization'
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.536821, -0.676676, -0.089106, -1.06151, 1.704803, -2.912147,
        -0.067034, 0.781554, -1.493617, -0.659731, 0.553968, -0.455473],
        rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.avg_mean, [0.056031, 0.093611],
                                  rtol=1e-5)
    numpy.testing.assert_allclose(link.avg_var, [1.020208, 0.975658],
                                  rtol=1e-5)
    with chainer.using_config('train', False):
        y = link(x)
    assert type(y.creator).__name__ == 'FixedBatchNormalization'
    numpy.testing.assert_allclose(y.array.ravel(), [
        2.330017, 0.136653, -0.604456, -1.386152, 2.496471, -2.078486,
        -0.586713, 0.095451, -0.672858, 0.153444, -0.087501, -0.898972],
        rtol=1e-5, atol=1e-6)
    # Test mode leaves the statistics alone.
    numpy.testing.assert_allclose(link.avg_mean, [0.056031, 0.093611],
                                  rtol=1e-5)


def test_lazy_axis():
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    link = L.BatchNormalization(axis=(0, 2))
    assert link.avg_mean is None
    check_params(link, {'/gamma': None, '/beta': None})
    link(x)
    check_params(link, {'/gamma': (3,), '/beta': (3,)})
    numpy.testing.assert_allclose(link.avg_mean, [0.75, 1.15, 1.55],
                                  rtol=1e-6)
    numpy.testing.assert_allclose(link.avg_var, [5.157143] * 3, rtol=1e-6)
    link = L.BatchNormalization(axis=0)
    link(x)
    assert link.axis == (0,) and link.avg_mean.shape == (3, 4)


def test_finetune():
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    link = L.BatchNormalization(3)
    link(x, finetune=True)
    assert link.N == 1
    numpy.testing.assert_allclose(link.avg_mean, [7.5, 11.5, 15.5])
    link(x + 2, finetune=True)
    assert link.N == 2
    numpy.testing.assert_allclose(link.avg_mean, [8.5, 12.5, 16.5])
    link.start_finetuning()
    assert link.N == 0
    with pytest.raises(ValueError, match='test argument'):
        link(x, test=True)
    with pytest.raises(TypeError, match='foo'):
        link(x, foo=True)


def test_without_gamma_beta():
    link = L.BatchNormalization(2, use_gamma=False, use_beta=False)
    x = R(0, 4, 2)
    y = link(x)
    expected = (x - x.mean(0)) / numpy.sqrt(x.var(0) + 2e-5)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_printable():
    expected = ('BatchNormalization(size=3, decay=0.9, eps=2e-05, '
                'dtype=float32, use_gamma=True, use_beta=True)')
    assert str(L.BatchNormalization(3)) == expected
    # Chainer prints use_gamma/use_beta as True even when they are off.
    assert str(L.BatchNormalization(3, use_gamma=False)) == expected
    assert str(L.BatchNormalization(3, decay=0.5, eps=1e-3,
                                    dtype=numpy.float16)) == (
        'BatchNormalization(size=3, decay=0.5, eps=0.001, dtype=float16, '
        'use_gamma=True, use_beta=True)')


def test_gradients():
    link = L.BatchNormalization(2, initial_gamma=R(1, 2),
                                initial_beta=R(2, 2), dtype=numpy.float64)
    with chainer.using_config('train', False):
        check_param_grads(link, (R(0, 3, 2),), R(3, 3, 2))
    link = L.BatchNormalization(2, initial_gamma=R(1, 2),
                                initial_beta=R(2, 2), dtype=numpy.float64)
    check_param_grads(link, (R(0, 3, 2),), R(3, 3, 2))


def test_serialize_and_copy(tmp_path):
    src = L.BatchNormalization(3)
    src(R(0, 4, 3), finetune=True)
    dst = L.BatchNormalization(3)
    roundtrip_npz(src, dst, tmp_path)
    assert dst.N == 1
    check_copies(src)
    lazy = L.BatchNormalization(axis=0)
    roundtrip_npz(src, lazy, tmp_path)
    assert lazy.gamma.shape == (3,)
