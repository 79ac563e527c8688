import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def test_forward_backward():
    check_op(F.log1p, lambda rng, dt: (uniform(rng, (3, 2), dt, -.5, 2),),
             numpy.log1p)


def test_accurate_near_zero():
    y = F.log1p(numpy.array([1e-10], numpy.float32)).array
    numpy.testing.assert_allclose(y, [1e-10], rtol=1e-6)


def test_node_shapes_errors():
    y = F.log1p(chainer.Variable(numpy.array(0.5, numpy.float64)))
    assert y.shape == ()
    assert type(y.creator).__name__ == 'Log1p' and y.creator.label == 'log1p'
    assert F.log1p(numpy.zeros((0, 2), numpy.float32)).shape == (0, 2)
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.log1p(numpy.array([0], numpy.int32))
