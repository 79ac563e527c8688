import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shapes', [
    ((2, 3), (2, 1)), ((3,), (2,)), ((), ()), ((2, 1, 2), (2, 2, 2)),
])
def test_hstack(shapes):
    check_op(lambda *xs: F.hstack(xs),
             lambda rng, dt: tuple(numpy.asarray(rng.randn(*s)).astype(dt) for s in shapes),
             lambda *xs: numpy.hstack(xs))


def test_hstack_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.hstack([x]).creator).__name__ == 'Hstack'
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.hstack([])
    with pytest.raises(InvalidType, match=r'shape\[0\]'):
        F.hstack([x, numpy.zeros((3, 1), numpy.float32)])
    with pytest.raises(InvalidType, match='ndim'):
        F.hstack([x, numpy.zeros(2, numpy.float32)])
    with pytest.raises(InvalidType, match='dtype'):
        F.hstack([x, x.astype(numpy.float16)])
