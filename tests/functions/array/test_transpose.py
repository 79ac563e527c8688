import numpy
import pytest

import chainer.functions as F
from op_harness import check_op

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


@pytest.mark.parametrize('shape,axes', [((2, 3, 4), None), ((2, 3, 4),
                                                            (1, 2, 0)),
                                        ((2, 3, 4), (-1, 0, 1)), ((), None),
                                        ((0, 2), (1, 0)), ((3,), [0])])
def test_transpose(shape, axes):
    check_op(lambda x: F.transpose(x, axes),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.transpose(x, axes))


def test_transpose_errors():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    assert type(F.transpose(x).creator).__name__ == 'Transpose'
    with pytest.raises(ValueError, match="axes don't match"):
        F.transpose(x, (1, 0))
    with pytest.raises(ValueError, match='repeated axis'):
        F.transpose(x, (0, 1, 1))
    with pytest.raises(_AxisError):
        F.transpose(x, (0, 1, 3))
