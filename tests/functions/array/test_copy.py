import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.backend import get_device_from_array
from op_harness import check_op


@pytest.mark.parametrize('dst', [-1, '@numpy'])
def test_copy(dst):
    check_op(lambda x: F.copy(x, dst),
             lambda rng, dt: (rng.randn(2, 3).astype(dt),), lambda x: x,
             double_backward=False)
    # As Chainer's, gradient_check perturbs its inputs on one device: the
    # second-order check (whose inputs are x and the output's gradient, on
    # two devices in the gpu run) takes a copy back to x's device.
    check_op(lambda x: F.copy(F.copy(x, dst), get_device_from_array(x)),
             lambda rng, dt: (rng.randn(2, 3).astype(dt),), lambda x: x,
             backward=False)


def test_copy_same_device():
    x = numpy.ones(3, numpy.float32)
    y = F.copy(x, -1)
    assert type(y.creator).__name__ == 'Copy'
    # As Chainer: sending to the device the array is on does not copy.
    numpy.testing.assert_array_equal(y.array, x)
    v = chainer.Variable(numpy.zeros((), numpy.float64))
    y = F.copy(v, '@numpy')
    assert y.shape == () and isinstance(y.array, numpy.ndarray)


def test_copy_errors():
    # as in Chainer: '@...' specifiers are checked, other strings name
    # ChainerX devices, which chainer-ng does not have
    with pytest.raises(ValueError, match="starting with '@'"):
        F.copy(numpy.ones(3, numpy.float32), '@foo')
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        F.copy(numpy.ones(3, numpy.float32), 'foo')
