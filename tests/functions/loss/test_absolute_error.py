import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (), (0, 2)])
def test_absolute_error(shape):
    def make(rng, dt):
        a = rng.randn(*shape)
        b = a + rng.choice([-1, 1], shape) * rng.uniform(0.5, 1, shape)
        return numpy.asarray(a, dt), numpy.asarray(b, dt)
    check_op(F.absolute_error, make, lambda a, b: abs(a - b))


def test_errors():
    a = numpy.ones((2, 3), numpy.float32)
    assert type(F.absolute_error(a, a).creator).__name__ == 'AbsoluteError'
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.absolute_error(a, a.astype(numpy.float64))
