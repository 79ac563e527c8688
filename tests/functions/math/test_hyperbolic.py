import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


@pytest.mark.parametrize('name', ['cosh', 'sinh'])
def test_forward_backward(name):
    check_op(getattr(F, name), lambda rng, dt: (uniform(rng, (3, 2), dt, -2, 2),),
             getattr(numpy, name))


@pytest.mark.parametrize('name', ['cosh', 'sinh'])
def test_shapes_node_errors(name):
    f = getattr(F, name)
    assert f(numpy.zeros((2, 0), numpy.float16)).shape == (2, 0)
    x = chainer.Variable(numpy.array(0.5))
    y = f(x)
    assert y.shape == () and y.creator.label == name
    assert type(y.creator).__name__ == name.capitalize()
    numpy.testing.assert_allclose(y.array, getattr(numpy, name)(0.5))
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        f(numpy.array([1], numpy.int64))


def test_identity():
    x = numpy.array([-1.5, 0., 2.], numpy.float64)
    c, s = F.cosh(x).array, F.sinh(x).array
    numpy.testing.assert_allclose(c * c - s * s, 1.)
