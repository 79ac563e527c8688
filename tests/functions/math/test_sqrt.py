import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def _pos(rng, dt):
    return uniform(rng, (3, 2), dt, 0.5, 2),


def test_sqrt():
    check_op(F.sqrt, _pos, numpy.sqrt)


def test_rsqrt():
    check_op(F.rsqrt, _pos, lambda x: 1 / numpy.sqrt(x))


def test_nodes():
    x = chainer.Variable(numpy.array([4.], numpy.float32))
    y = F.sqrt(x)
    assert type(y.creator).__name__ == 'Sqrt' and y.creator.label == 'sqrt'
    z = F.rsqrt(x)
    numpy.testing.assert_allclose(z.array, [.5])
    # rsqrt is 1 / sqrt(x), as in Chainer.
    assert type(z.creator).__name__ == 'DivFromConstant'


def test_shapes_dtypes():
    assert F.sqrt(numpy.zeros((0, 3), numpy.float32)).shape == (0, 3)
    y = F.rsqrt(numpy.array(4., numpy.float16))
    assert y.shape == () and y.dtype == numpy.float16


@pytest.mark.parametrize('f', [F.sqrt, F.rsqrt])
def test_int_input(f):
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        f(numpy.array([4], numpy.int32))
