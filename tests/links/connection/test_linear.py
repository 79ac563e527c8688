import numpy
import pytest

import chainer
import chainer.links as L
from chainer import initializers
from chainer.utils.type_check import InvalidType
from link_harness import (check_copies, check_param_grads, check_params,
                          roundtrip_npz)


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_defaults():
    link = L.Linear(3, 2)
    check_params(link, {'/W': (2, 3), '/b': (2,)})
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros(2))
    assert isinstance(link.W.initializer, initializers.LeCunNormal)
    assert (link.in_size, link.out_size) == (3, 2)


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Linear(3, 2, initialW=R(1, 2, 3), initial_bias=R(2, 2))
    y = link(R(0, 2, 3))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(
        y.array.ravel(), [1.686932, -3.855344, 2.596907, 1.404767],
        rtol=1e-5)


def test_lazy_single_argument_and_batch_axes():
    link = L.Linear(3)
    assert link.in_size is None and link.out_size == 3
    check_params(link, {'/W': None, '/b': (3,)})
    assert link(numpy.ones((2, 3, 2), numpy.float32)).shape == (2, 3)
    assert link.W.shape == (3, 6)
    link = L.Linear(None, 2, initialW=R(1, 2, 6), nobias=True)
    y = link(R(0, 2, 3, 2), n_batch_axes=1)
    numpy.testing.assert_allclose(
        y.array.ravel(), [3.564724, 7.270681, -1.972587, -1.147783],
        rtol=1e-5)
    link = L.Linear(None, 3)
    assert link(numpy.ones((2, 4, 5), numpy.float32),
                n_batch_axes=2).shape == (2, 4, 3)
    assert link.W.shape == (3, 5)


def test_nobias_initializers_and_dtypes():
    link = L.Linear(2, 3, nobias=True, initialW=2.)
    assert link.b is None
    check_params(link, {'/W': (3, 2)})
    numpy.testing.assert_array_equal(link.W.array, numpy.full((3, 2), 2.))
    link = L.Linear(2, 3, initialW=numpy.ones((3, 2)),
                    initial_bias=numpy.arange(3.))
    assert link.W.dtype == numpy.float32 and link.b.dtype == numpy.float32
    with chainer.using_config('dtype', numpy.float16):
        link = L.Linear(2, 3)
    check_params(link, {'/W': (3, 2), '/b': (3,)}, dtype=numpy.float16)
    assert link(numpy.ones((1, 2), numpy.float16)).dtype == numpy.float16


def test_from_params():
    link = L.Linear.from_params(R(1, 3, 2), R(2, 3))
    numpy.testing.assert_array_equal(link.W.array, R(1, 3, 2))
    numpy.testing.assert_array_equal(link.b.array, R(2, 3))
    assert (link.in_size, link.out_size) == (2, 3)
    assert L.Linear.from_params(R(1, 3, 2), nobias=True).b is None
    with pytest.raises(ValueError, match='out_size'):
        L.Linear.from_params(R(1, 3, 2), numpy.zeros(4, numpy.float32))


def test_printable():
    assert str(L.Linear(3, 2)) == \
        'Linear(in_size=3, out_size=2, nobias=False)'
    assert str(L.Linear(None, 3, nobias=True)) == \
        'Linear(in_size=None, out_size=3, nobias=True)'


def test_gradients_reach_params():
    link = L.Linear(3, 2, initial_bias=R(2, 2))
    check_param_grads(link, (R(0, 4, 3),), R(3, 4, 2))


def test_serialize_and_copy(tmp_path):
    src = L.Linear(3, 2, initial_bias=R(2, 2))
    dst = L.Linear(3, 2)
    roundtrip_npz(src, dst, tmp_path)
    lazy = L.Linear(2)
    roundtrip_npz(src, lazy, tmp_path)
    assert lazy.W.shape == (2, 3)
    check_copies(src)


def test_bad_input():
    link = L.Linear(2, 3)
    with pytest.raises(InvalidType, match='LinearFunction'):
        link(numpy.ones((2, 4), numpy.float32))


def test_training_smoke():
    rng = numpy.random.RandomState(0)
    x = rng.randn(16, 3).astype(numpy.float32)
    t = (x @ numpy.array([[1.], [-2.], [0.5]], numpy.float32) + 0.3)
    link = L.Linear(3, 1)
    opt = chainer.optimizers.SGD(lr=0.1)
    opt.setup(link)
    first = None
    for _ in range(50):
        loss = chainer.functions.mean_squared_error(link(x), t)
        link.cleargrads()
        loss.backward()
        opt.update()
        first = first if first is not None else float(loss.array)
    assert float(loss.array) < first * 0.01
