import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _make(shape):
    def make(rng, dt):
        a = rng.randn(*shape)
        # Keep |a - b| away from 0, the kink.
        b = a + rng.choice([-1, 1], shape) * rng.uniform(0.5, 1, shape)
        return numpy.asarray(a, dt), numpy.asarray(b, dt)
    return make


@pytest.mark.parametrize('shape', [(3, 4), (), (2, 1, 3)])
def test_mean_absolute_error(shape):
    check_op(F.mean_absolute_error, _make(shape),
             lambda a, b: abs(a - b).mean())


def test_values():
    y = F.mean_absolute_error(numpy.array([1., -2.], numpy.float32),
                              numpy.zeros(2, numpy.float32))
    assert y.array == 1.5 and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'MeanAbsoluteError'
    e = numpy.zeros((0,), numpy.float32)
    assert numpy.isnan(F.mean_absolute_error(e, e).array)


def test_errors():
    a = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(InvalidType, match='x0.shape == x1.shape'):
        F.mean_absolute_error(a, a[:1])
    with pytest.raises(InvalidType, match='x0.dtype == x1.dtype'):
        F.mean_absolute_error(a, a.astype(numpy.float16))
