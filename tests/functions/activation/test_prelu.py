import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def away_from_zero(rng, shape, dtype):
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 1, shape)
    return numpy.asarray(x, dtype)


def reference(x, W):
    w = W.reshape((1,) + W.shape + (1,) * (x.ndim - 1 - W.ndim))
    return numpy.where(x >= 0, x, x * w)


@pytest.mark.parametrize('x_shape,w_shape', [((3, 2), (2,)),
                                             ((2, 3, 2), (3,)),
                                             ((2, 3, 2), (3, 2)),
                                             ((4,), ())])
def test_prelu(x_shape, w_shape):
    check_op(F.prelu, lambda rng, dt: (away_from_zero(rng, x_shape, dt),
                                       numpy.asarray(rng.uniform(-1, 1, w_shape), dt)),
             reference)


def test_values():
    y = F.prelu(numpy.array([[-1., 2.], [-3., 0.]], numpy.float32),
                numpy.array([0.5, 0.1], numpy.float32))
    assert y.creator.label == 'PReLUFunction'
    numpy.testing.assert_allclose(y.array, [[-0.5, 2], [-1.5, 0]])


def test_empty():
    y = F.prelu(numpy.zeros((0, 3), numpy.float32),
                numpy.ones(3, numpy.float32))
    assert y.shape == (0, 3)


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match=r'x.shape\[1:2\]'):
        F.prelu(x, numpy.ones(2, numpy.float32))
    with pytest.raises(InvalidType, match='W.dtype'):
        F.prelu(x, numpy.ones(3, numpy.float64))
    with pytest.raises(InvalidType, match='x.ndim'):
        F.prelu(x[0], numpy.ones(3, numpy.float32))


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype check is a type check; with it off y keeps x's
    # dtype
    import chainer
    x = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    W = numpy.array([1.1, 0.4, -0.35], numpy.float32)
    with pytest.raises(InvalidType, match='W.dtype == x.dtype'):
        F.prelu(x, W)
    with chainer.using_config('type_check', False):
        y = F.prelu(x, W)
    assert y.dtype == numpy.float16
    assert y.array.tolist() == [[0.300048828125, -0.68017578125,
                                 2.19921875]]
