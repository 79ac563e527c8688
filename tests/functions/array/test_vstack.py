import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shapes', [
    ((2, 3), (1, 3)), ((3,), (3,)), ((), ()), ((1, 2, 2), (2, 2, 2)),
])
def test_vstack(shapes):
    check_op(lambda *xs: F.vstack(xs),
             lambda rng, dt: tuple(numpy.asarray(rng.randn(*s)).astype(dt) for s in shapes),
             lambda *xs: numpy.vstack(xs))


def test_vstack_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.vstack([x]).creator).__name__ == 'Vstack'
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.vstack([])
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.shape\[1\] == '
                       r'in_types\[1\]\.shape\[1\]'):
        F.vstack([x, numpy.zeros((2, 4), numpy.float32)])
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.shape == '
                       r'in_types\[1\]\.shape\nActual: \(3,\) != \(2,\)'):
        F.vstack([numpy.zeros(3, numpy.float32),
                  numpy.zeros(2, numpy.float32)])
    with pytest.raises(InvalidType, match='ndim'):
        F.vstack([x, numpy.zeros(3, numpy.float32)])
