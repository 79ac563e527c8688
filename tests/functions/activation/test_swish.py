import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def reference(x, beta):
    b = beta.reshape((1,) + beta.shape + (1,) * (x.ndim - 1 - beta.ndim))
    return x / (1 + numpy.exp(-b * x))


@pytest.mark.parametrize('x_shape,b_shape', [((3, 2), (2,)),
                                             ((2, 3, 2), (3,)),
                                             ((2, 3), ())])
def test_swish(x_shape, b_shape):
    check_op(F.swish, lambda rng, dt: (numpy.asarray(rng.randn(*x_shape), dt),
                                       numpy.asarray(rng.uniform(0.5, 2, b_shape), dt)),
             reference)


def test_values():
    y = F.swish(numpy.array([[0., 2.]], numpy.float32),
                numpy.array([1., 1.], numpy.float32))
    assert y.creator.label == 'Swish'
    numpy.testing.assert_allclose(y.array, [[0, 2 / (1 + numpy.exp(-2))]],
                                  rtol=1e-6)


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='beta.shape'):
        F.swish(x, numpy.ones(1, numpy.float32))
    with pytest.raises(InvalidType, match='beta.dtype'):
        F.swish(x, numpy.ones(3, numpy.float64))
