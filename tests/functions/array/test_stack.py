import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis', [
    ((2, 3), 0), ((2, 3), 2), ((2, 3), -1), ((2, 3), -3), ((), 0),
    ((0, 2), 1),
])
def test_stack(shape, axis):
    check_op(lambda a, b: F.stack([a, b], axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),
                              numpy.asarray(rng.randn(*shape)).astype(dt)),
             lambda a, b: numpy.stack([a, b], axis))


def test_stack_creator():
    x = numpy.zeros(2, numpy.float32)
    assert type(F.stack([x, x]).creator).__name__ == 'Stack'


def test_stack_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.stack([])
    with pytest.raises(InvalidType, match='shape'):
        F.stack([x, x[0]])
    with pytest.raises(InvalidType, match='dtype'):
        F.stack([x, x.astype(numpy.float64)])
    with pytest.raises(InvalidType, match='ndim >= 3'):
        F.stack([x, x], 3)
    with pytest.raises(InvalidType, match='-4'):
        F.stack([x, x], -4)


def test_mismatch_messages_name_the_later_input_first():
    a = numpy.zeros(2, numpy.float32)
    with pytest.raises(InvalidType, match=r'in_types\[2\].shape == '
                       r'in_types\[0\].shape\nActual: \(3,\) != \(2,\)$'):
        F.stack([a, a, numpy.zeros(3, numpy.float32)])
    with pytest.raises(InvalidType, match=r'in_types\[1\].dtype == '
                       r'in_types\[0\].dtype\nActual: float64 != float32$'):
        F.stack([a, numpy.zeros(2)])
