import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def test_forward_backward():
    check_op(F.expm1, lambda rng, dt: (uniform(rng, (3, 2), dt, -2, 2),),
             numpy.expm1)


def test_accurate_near_zero():
    y = F.expm1(numpy.array([1e-10], numpy.float32)).array
    numpy.testing.assert_allclose(y, [1e-10], rtol=1e-6)


def test_node_shapes_errors():
    y = F.expm1(chainer.Variable(numpy.array(0.5, numpy.float16)))
    assert y.shape == () and y.dtype == numpy.float16
    assert type(y.creator).__name__ == 'Expm1' and y.creator.label == 'expm1'
    assert F.expm1(numpy.zeros((0, 2), numpy.float32)).shape == (0, 2)
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.expm1(numpy.array([0], numpy.int32))
