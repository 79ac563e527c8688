import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(x, eps=1e-5, axis=1):
    return x / (numpy.sqrt((x * x).sum(axis=axis, keepdims=True)) + eps)


@pytest.mark.parametrize('shape,axis', [((3, 4), 1), ((2, 3, 2), (0, 2)),
                                        ((2, 3), -1), ((0, 3), 1)])
def test_normalize(shape, axis):
    def make(rng, dt):
        return rng.randn(*shape).astype(dt),

    check_op(lambda x: F.normalize(x, axis=axis), make,
             lambda x: _ref(x, axis=axis))


def test_eps_is_added_to_the_norm():
    x = numpy.array([[3., 4.]], 'f')
    testing.assert_allclose(F.normalize(x, eps=5.).array, [[0.3, 0.4]])
    y = F.normalize(x)
    assert y.creator.label == 'NormalizeL2' and y.dtype == numpy.float32


def test_zero_vector():
    x = chainer.Variable(numpy.zeros((2, 3)))
    y = F.normalize(x)
    testing.assert_allclose(y.array, numpy.zeros((2, 3)))
    y.grad = numpy.ones((2, 3))
    y.backward()
    testing.assert_allclose(x.grad, numpy.full((2, 3), 1e5))


def test_errors():
    with pytest.raises(ValueError, match='out of bounds'):
        F.normalize(numpy.ones(3, 'f'))
    with pytest.raises(IndexError, match='out of bounds'):
        F.normalize(numpy.ones((3, 2), 'f'), axis=2)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.normalize(numpy.ones((3, 2), 'i'))
