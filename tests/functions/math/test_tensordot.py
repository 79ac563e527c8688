import numpy
import pytest

import chainer.functions as F
from chainer.functions.math import tensordot as td_mod
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}


@pytest.mark.parametrize('a_shape,b_shape,axes', [
    ((2, 3), (3, 2), 1),
    ((2, 3, 2), (3, 2, 2), 2),
    ((2, 3), (3, 2), 0),
    ((2, 3, 4), (4, 2, 3), ((1, 2), (2, 0))),   # out of order pairs
    ((3, 2), (3, 4), ([0], [0])),
    ((2, 3, 2), (2, 2), (0, 1)),
])
def test_tensordot(a_shape, b_shape, axes):
    check_op(lambda a, b: F.tensordot(a, b, axes=axes),
             lambda rng, dt: (rng.randn(*a_shape).astype(dt),
                              rng.randn(*b_shape).astype(dt)),
             lambda a, b: numpy.tensordot(a, b, axes=axes),
             fwd_tol=TOL16, bwd_tol=TOL16)


def test_tensordot_full_contraction_gradient():
    import chainer
    a = chainer.Variable(numpy.arange(6.).reshape(2, 3))
    b = chainer.Variable(numpy.ones((2, 3)))
    y = F.tensordot(a, b, axes=((0, 1), (0, 1)))
    assert isinstance(y.creator, td_mod.TensorDot)
    assert float(y.array) == 15
    y.backward()
    numpy.testing.assert_array_equal(a.grad, numpy.ones((2, 3)))
    numpy.testing.assert_array_equal(b.grad, a.array)


def test_tensordot_dtype_and_empty():
    y = F.tensordot(numpy.ones((2, 3), numpy.float32),
                    numpy.ones((3, 4), numpy.float64), axes=1)
    assert y.dtype == numpy.float64
    y = F.tensordot(numpy.ones((0, 3)), numpy.ones((3, 4)), axes=1)
    assert y.shape == (0, 4)


def test_tensordot_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='shape mismatch'):
        F.tensordot(a, a, axes=1)
    with pytest.raises(ValueError, match='axes count mismatch'):
        F.tensordot(a, a, axes=((0,), (0, 1)))
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=3)
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=((2,), (0,)))
