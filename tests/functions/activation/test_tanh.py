import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (), (2, 0)])
def test_tanh(shape):
    check_op(F.tanh, lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),),
             numpy.tanh, backward=0 not in shape,
             double_backward=0 not in shape)


def test_extremes():
    y = F.tanh(numpy.array([-1e4, 0, 1e4], numpy.float16))
    assert y.creator.label == 'Tanh' and y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [-1, 0, 1])


def test_errors():
    with pytest.raises(InvalidType, match='Tanh'):
        F.tanh(numpy.array([1], numpy.int32))
