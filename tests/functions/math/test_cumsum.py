import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import cumsum as cumsum_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis', [
    ((2, 3), None), ((2, 3), 0), ((2, 3, 2), 1), ((2, 3), -1), ((4,), 0),
])
def test_cumsum(shape, axis):
    check_op(lambda x: F.cumsum(x, axis=axis),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: numpy.cumsum(x, axis=axis),
             fwd_tol={numpy.float16: dict(atol=1e-2, rtol=1e-2)})


def test_cumsum_values_and_creator():
    x = numpy.array([[1., 3., 3.], [2., 0., 1.]], numpy.float16)
    y = F.cumsum(x)
    assert isinstance(y.creator, cumsum_mod.Cumsum)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [1, 4, 7, 9, 9, 10])
    numpy.testing.assert_array_equal(F.cumsum(x, axis=1).array,
                                     [[1, 4, 7], [2, 2, 3]])


def test_cumsum_0d_and_empty():
    x = chainer.Variable(numpy.array(2., numpy.float32))
    y = F.cumsum(x)
    assert y.shape == (1,)
    y.grad = numpy.ones(1, numpy.float32)
    y.backward()
    assert x.grad.shape == ()
    e = chainer.Variable(numpy.zeros((0, 2), numpy.float32))
    y = F.cumsum(e, axis=0)
    assert y.shape == (0, 2)
    F.sum(y).backward()
    assert e.grad.shape == (0, 2)


def test_cumsum_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='axis must be int or None'):
        F.cumsum(x, axis=(0, 1))
    with pytest.raises(InvalidType, match='Cumsum'):
        F.cumsum(x, axis=2)
