import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def inputs(rng, shape, dtype):
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 1, shape)
    return (numpy.asarray(x, dtype),)


def reference(axis):
    return lambda x: numpy.concatenate(
        (numpy.maximum(x, 0), numpy.maximum(-x, 0)), axis=axis)


@pytest.mark.parametrize('shape,axis', [((2, 3), 1), ((2, 3, 2), 0),
                                        ((2, 3), -1)])
def test_crelu(shape, axis):
    check_op(lambda x: F.crelu(x, axis),
             lambda rng, dt: inputs(rng, shape, dt), reference(axis))


def test_values():
    y = F.crelu(numpy.array([[-1., 2.]], numpy.float32))
    assert y.creator.label == 'CReLU'
    numpy.testing.assert_array_equal(y.array, [[0, 2, 1, 0]])


def test_empty():
    assert F.crelu(numpy.zeros((0, 3), numpy.float32)).shape == (0, 6)


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='x.ndim > 3'):
        F.crelu(x, axis=3)
    with pytest.raises(InvalidType):
        F.crelu(x, axis=-3)
    with pytest.raises(InvalidType, match='CReLU'):
        F.crelu(x.astype(numpy.int32))


def test_signed_zeros_as_chainer():
    # Chainer 7.8.1 computes max(0, x) and max(0, -x): a zero input gives
    # -0. in the second half, which printing shows.
    y = F.crelu(numpy.array([[-1.5, 0., 2.]], numpy.float32))
    assert numpy.signbit(y.array).tolist() == [[False] * 4 + [True, False]]
    assert str(y) == 'variable([[ 0.   0.   2.   1.5 -0.   0. ]])'
