import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


@pytest.mark.parametrize('name,low,high', [
    ('exp', -2, 2), ('log', 0.5, 3), ('log2', 0.5, 3), ('log10', 0.5, 3)])
def test_forward_backward(name, low, high):
    check_op(getattr(F, name),
             lambda rng, dt: (uniform(rng, (3, 2), dt, low, high),),
             getattr(numpy, name))


@pytest.mark.parametrize('name', ['exp', 'log', 'log2', 'log10'])
def test_node_shapes(name):
    f = getattr(F, name)
    x = chainer.Variable(numpy.array(2., numpy.float32))
    y = f(x)
    assert y.shape == () and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, getattr(numpy, name)(2.),
                                  rtol=1e-6)
    assert y.creator.label == name
    assert type(y.creator).__name__ == name.capitalize()
    y.backward()
    assert x.grad.shape == ()
    assert f(numpy.ones((0, 2), numpy.float16)).shape == (0, 2)
    assert f(numpy.ones((2, 1, 3), numpy.float16)).dtype == numpy.float16


def test_known_values():
    numpy.testing.assert_allclose(F.log2(numpy.array([8.])).array, [3.])
    numpy.testing.assert_allclose(F.log10(numpy.array([1000.])).array, [3.])
    numpy.testing.assert_allclose(F.exp(numpy.array([0.])).array, [1.])


@pytest.mark.parametrize('name', ['exp', 'log', 'log2', 'log10'])
def test_int_input(name):
    with pytest.raises(type_check.InvalidType, match='dtype.kind == f'):
        getattr(F, name)(numpy.array([1, 2], numpy.int32))
