import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def reference(beta):
    return lambda x: numpy.logaddexp(0, beta * x) / beta


@pytest.mark.parametrize('beta,shape', [(1.0, (3, 2)), (2.0, ()),
                                        (0.5, (2, 1, 2))])
def test_softplus(beta, shape):
    check_op(lambda x: F.softplus(x, beta),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape) * 2, dt),),
             reference(beta))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_stable(dtype):
    y = F.softplus(numpy.array([-1e4, 0, 1e4, 100], dtype), beta=2.)
    assert y.creator.label == 'Softplus' and y.dtype == dtype
    numpy.testing.assert_allclose(y.array, [0, numpy.log(2) / 2, 1e4, 100],
                                  rtol=1e-3)


def test_errors():
    with pytest.raises(InvalidType, match='Softplus'):
        F.softplus(numpy.array([1], numpy.int32))
    with pytest.raises(ZeroDivisionError):
        F.softplus(numpy.array([1.], numpy.float32), beta=0)


def test_empty():
    assert F.softplus(numpy.zeros((0,), numpy.float32)).shape == (0,)
