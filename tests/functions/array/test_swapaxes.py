import numpy
import pytest

import chainer.functions as F
from op_harness import check_op

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


@pytest.mark.parametrize('a1,a2', [(0, 2), (-1, -3), (1, 1), (0, 1)])
def test_swapaxes(a1, a2):
    check_op(lambda x: F.swapaxes(x, a1, a2),
             lambda rng, dt: (rng.randn(2, 3, 4).astype(dt),),
             lambda x: numpy.swapaxes(x, a1, a2))


def test_swapaxes_errors():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    assert type(F.swapaxes(x, 0, 1).creator).__name__ == 'Swapaxes'
    with pytest.raises(_AxisError):
        F.swapaxes(x, 0, 3)
    with pytest.raises(_AxisError):
        F.swapaxes(x, -4, 0)
