import numpy
import pytest

import chainer
import chainer.functions as F


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_values(dtype):
    x = chainer.Variable(numpy.array([1.5, -1.5, 2.0, -0.5], dtype))
    y = F.ceil(x)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, numpy.array([2., -1., 2., -0.], dtype))
    # Piecewise constant: no graph, no gradient (as in Chainer).
    assert y.creator is None and not y.requires_grad


def test_int_keeps_dtype():
    y = F.ceil(numpy.array([3, -2, 0], numpy.int32))
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, numpy.ceil([3, -2, 0]))


def test_shapes():
    y = F.ceil(numpy.array(-1.5, numpy.float32))
    assert isinstance(y, chainer.Variable) and y.shape == ()
    assert float(y.array) == numpy.ceil(-1.5)
    assert F.ceil(numpy.zeros((2, 0), numpy.float32)).shape == (2, 0)
    assert F.ceil(numpy.zeros((2, 3, 1), numpy.float32)).shape == (2, 3, 1)


def test_in_graph_gives_no_gradient():
    x = chainer.Variable(numpy.array([1.5, -2.5], numpy.float32))
    y = x * 2 + F.ceil(x)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2., 2.])
