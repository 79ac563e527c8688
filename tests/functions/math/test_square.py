import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def test_forward_backward():
    check_op(F.square, lambda rng, dt: (uniform(rng, (3, 2), dt, -2, 2),),
             numpy.square)


def test_node_shapes_errors():
    y = F.square(chainer.Variable(numpy.array(-3., numpy.float32)))
    assert y.shape == () and float(y.array) == 9.
    assert type(y.creator).__name__ == 'Square'
    assert y.creator.label == 'square'
    assert F.square(numpy.zeros((0, 2), numpy.float32)).shape == (0, 2)
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.square(numpy.array([3], numpy.int32))
