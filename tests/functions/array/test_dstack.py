import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shapes', [
    ((2, 3), (2, 3)), ((3,), (3,)), ((), ()), ((2, 1, 1), (2, 1, 2)),
    ((1, 2, 2, 2), (1, 2, 1, 2)),
])
def test_dstack(shapes):
    check_op(lambda *xs: F.dstack(xs),
             lambda rng, dt: tuple(numpy.asarray(rng.randn(*s)).astype(dt) for s in shapes),
             lambda *xs: numpy.dstack(xs))


def test_dstack_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.dstack([x]).creator).__name__ == 'Dstack'
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.dstack([])
    with pytest.raises(InvalidType, match=r'x0\.shape == x1\.shape\nActual: '
                       r'\(2, 3\) != \(2, 4\)'):
        F.dstack([x, numpy.zeros((2, 4), numpy.float32)])
    with pytest.raises(InvalidType, match='ndim'):
        F.dstack([x, numpy.zeros((2, 3, 1), numpy.float32)])
