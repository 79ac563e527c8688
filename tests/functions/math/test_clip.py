import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op


def _make(rng, dt):
    # Away from the bounds -0.75 and 0.75, where the gradient jumps.
    x = numpy.array([[-1.5, -0.4, 0.], [0.3, 1.2, 0.6]])
    return (x + rng.uniform(-.1, .1, x.shape)).astype(dt),


@pytest.mark.parametrize('lo,hi', [(-.75, .75), (None, .75), (-.75, None)])
def test_forward_backward(lo, hi):
    check_op(lambda x: F.clip(x, lo, hi), _make,
             lambda x: numpy.clip(x, lo, hi))


def test_gradient_at_edges_is_one():
    x = chainer.Variable(numpy.array([-1., 0., 1., 2., -3.], numpy.float32))
    y = F.clip(x, -1., 1.)
    y.grad = numpy.ones(5, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1., 1., 1., 0., 0.])
    assert type(y.creator).__name__ == 'Clip' and y.creator.label == 'Clip'


def test_dtype_kept_with_numpy_bounds():
    x = numpy.array([.5, 3.], numpy.float16)
    y = F.clip(x, numpy.float64(0), 1)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [.5, 1.])


def test_shapes():
    y = F.clip(numpy.array(3., numpy.float32), 0., 1.)
    assert y.shape == () and float(y.array) == 1.
    assert F.clip(numpy.zeros((0, 3), numpy.float32), 0., 1.).shape == (0, 3)


def test_errors():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(ValueError, match='must set either max or min'):
        F.clip(x, None, None)
    with pytest.raises(ValueError, match='x_min must be less than x_max'):
        F.clip(x, 1., -1.)
    with pytest.raises(ValueError, match='x_min must be less than x_max'):
        F.clip(x, 1., 1.)
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.clip(numpy.ones(2, numpy.int32), 0, 1)
