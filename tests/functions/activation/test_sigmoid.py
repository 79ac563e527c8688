import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (), (0, 2)])
def test_sigmoid(shape):
    check_op(F.sigmoid, lambda rng, dt: (numpy.asarray(rng.randn(*shape) * 3, dt),),
             lambda x: 1 / (1 + numpy.exp(-x)),
             backward=shape != (0, 2), double_backward=shape != (0, 2))


def test_extremes():
    y = F.sigmoid(numpy.array([-1e4, 0, 1e4], numpy.float32))
    assert y.creator.label == 'Sigmoid'
    numpy.testing.assert_array_equal(y.array, [0, 0.5, 1])


def test_errors():
    with pytest.raises(InvalidType, match='Sigmoid'):
        F.sigmoid(numpy.array([1], numpy.int32))


def test_grad_bits_match_chainer_order():
    import chainer
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(4, 5).astype(numpy.float32))
    gy = rs.randn(4, 5).astype(numpy.float32)
    y = F.sigmoid(x)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(x.grad, gy * y.array * (1 - y.array))
