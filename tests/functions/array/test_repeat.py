import numpy
import pytest

import chainer.functions as F
from op_harness import check_op

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


@pytest.mark.parametrize('shape,repeats,axis', [
    ((2, 3), 2, None), ((2, 3), 2, 1), ((2, 3), (1, 3, 0), 1),
    ((2, 3), 3, -2), ((), 3, None), ((2, 3), (2,), 0), ((2, 3), 0, 0),
])
def test_repeat(shape, repeats, axis):
    check_op(lambda x: F.repeat(x, repeats, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.repeat(x, repeats, axis))


def test_repeat_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.repeat(x, 2).creator).__name__ == 'Repeat'
    with pytest.raises(ValueError, match='zero or larger'):
        F.repeat(x, -1)
    with pytest.raises(TypeError, match='repeats must be int'):
        F.repeat(x, 2.0)
    with pytest.raises(TypeError, match='axis must be int or None'):
        F.repeat(x, 2, 1.0)
    with pytest.raises(_AxisError):
        F.repeat(x, 2, 2)
    with pytest.raises(ValueError) as e:
        F.repeat(x, (1, 2), 1)
    assert str(e.value) == ('operands could not be broadcast together with '
                            'shape (3,) (2,)')
    with pytest.raises(TypeError) as e:  # a list, as in Chainer
        F.repeat(x, [1, 2, 0], 1)
    assert str(e.value) == 'repeats must be int or tuple of ints'


def test_repeat_bool_counts():
    # True/False count as 1/0, as in Chainer.
    x = numpy.arange(2, dtype=numpy.float32)
    numpy.testing.assert_array_equal(F.repeat(x, True).array, x)
    numpy.testing.assert_array_equal(
        F.repeat(x, (False, True), axis=0).array, [1.])
