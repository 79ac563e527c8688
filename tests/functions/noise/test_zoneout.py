import numpy
import pytest

import chainer
import chainer.functions as F
from op_harness import check_op


def test_flags_from_the_global_generator():
    h = numpy.zeros((2, 4), numpy.float32)
    x = numpy.ones((2, 4), numpy.float32)
    numpy.random.seed(0)
    y = F.zoneout(h, x, 0.6)
    assert y.creator.label == 'Zoneout'
    numpy.random.seed(0)
    expected = (numpy.random.rand(2, 4) >= 0.6).astype(numpy.float32)
    numpy.testing.assert_array_equal(y.array, expected)


def test_gradients():
    def f(h, x):
        # the flags come from the inputs' array module (cupy.random on
        # the GPU)
        chainer.backend.get_array_module(h).random.seed(2)
        return F.zoneout(h, x, 0.5)
    check_op(f, lambda rng, dt: (numpy.asarray(rng.randn(3, 4), dt),
                                 numpy.asarray(rng.randn(3, 4), dt)))


def test_gradient_routing():
    h = chainer.Variable(numpy.full((3, 5), 2., numpy.float32))
    x = chainer.Variable(numpy.full((3, 5), 3., numpy.float32))
    y = F.zoneout(h, x, 0.4)
    y.grad = numpy.ones((3, 5), numpy.float32)
    y.backward()
    took_x = y.array == 3
    numpy.testing.assert_array_equal(x.grad, took_x)
    numpy.testing.assert_array_equal(h.grad, ~took_x)


def test_broadcast_previous_state():
    h = chainer.Variable(numpy.zeros((1, 4), numpy.float32))
    y = F.zoneout(h, numpy.ones((2, 4), numpy.float32), 0.5)
    assert y.shape == (2, 4)
    y.grad = numpy.ones((2, 4), numpy.float32)
    y.backward()
    assert h.grad.shape == (1, 4)
    numpy.testing.assert_array_equal(h.grad[0], (y.array == 0).sum(axis=0))


def test_test_mode_and_ratios():
    h = numpy.zeros((2, 3), numpy.float32)
    x = numpy.ones((2, 3), numpy.float32)
    with chainer.using_config('train', False):
        numpy.testing.assert_array_equal(F.zoneout(h, x, 0.9).array, x)
    numpy.testing.assert_array_equal(F.zoneout(h, x, 0.).array, x)
    numpy.testing.assert_array_equal(F.zoneout(h, x, 1.).array, h)
    e = numpy.zeros((0, 3), numpy.float32)
    assert F.zoneout(e, e).shape == (0, 3)


def test_errors():
    h = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='train argument'):
        F.zoneout(h, h, train=True)
    with pytest.raises(TypeError, match="'foo'"):
        F.zoneout(h, h, foo=1)


def test_zoneout_flags():
    # Chainer's flags on the node: flag_h marks what comes from h.
    h = numpy.zeros((20, 30), numpy.float32)
    x = numpy.ones((20, 30), numpy.float32)
    y = F.zoneout(h, x, 0.3)
    node = y.creator
    assert node.flag_h.dtype == bool
    numpy.testing.assert_array_equal(node.flag_x, ~node.flag_h)
    numpy.testing.assert_array_equal(y.array, node.flag_x)
    assert 0.1 < node.flag_h.mean() < 0.5
