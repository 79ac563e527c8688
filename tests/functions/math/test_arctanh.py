import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def test_forward_backward():
    check_op(F.arctanh, lambda rng, dt: (uniform(rng, (3, 2), dt, -.7, .7),),
             numpy.arctanh)


def test_node_shapes_errors():
    y = F.arctanh(chainer.Variable(numpy.array(0.5, numpy.float32)))
    assert y.shape == () and type(y.creator).__name__ == 'Arctanh'
    assert y.creator.label == 'Arctanh'
    assert F.arctanh(numpy.zeros((0,), numpy.float32)).shape == (0,)
    numpy.testing.assert_allclose(F.arctanh(numpy.tanh(numpy.array([.3]))).array, [.3])
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.arctanh(numpy.array([0], numpy.int32))
