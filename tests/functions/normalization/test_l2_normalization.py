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


def test_gradient_rounds_as_chainer():
    # Chainer 7.8.1's bits (its backward step by step), a zero row included
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(3, 4).astype(numpy.float32))
    x.array[1] = 0
    y = F.normalize(x)
    y.grad = rs.randn(3, 4).astype(numpy.float32)
    y.backward()
    assert x.grad.tolist() == [
        [0.08888640254735947, 0.0034093379508703947, 0.056424785405397415,
         -0.09522395581007004],
        [149407.921875, -20515.828125, 31306.771484375, -85409.578125],
        [-1.6903457641601562, 0.47889140248298645, 0.5854460000991821,
         -0.31317299604415894]]
