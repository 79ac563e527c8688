import numpy
import pytest

import chainer.functions as F
from chainer.functions.math import batch_l2_norm_squared as mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (2, 3, 2), (1, 1), (3, 0)])
def test_batch_l2_norm_squared(shape):
    check_op(F.batch_l2_norm_squared,
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: (x.reshape(len(x), -1) ** 2).sum(axis=1))


def test_values_and_creator():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = F.batch_l2_norm_squared(x)
    assert isinstance(y.creator, mod.BatchL2NormSquared)
    numpy.testing.assert_array_equal(y.array, [5, 50])


def test_errors():
    with pytest.raises(InvalidType, match='x.ndim >= 2'):
        F.batch_l2_norm_squared(numpy.ones(3, numpy.float32))
    with pytest.raises(InvalidType, match='BatchL2NormSquared'):
        F.batch_l2_norm_squared(numpy.ones((2, 2), numpy.int32))
