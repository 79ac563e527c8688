import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


@pytest.mark.parametrize('t', [[2, 0, 1], [1, 0, 0]])
def test_select_item(t):
    t = numpy.array(t, numpy.int32)
    check_op(lambda x: F.select_item(x, on_device(t)),
             lambda rng, dt: (rng.randn(3, 3).astype(dt),),
             lambda x: x[numpy.arange(3), t])


def test_select_item_empty_and_int():
    y = F.select_item(numpy.zeros((0, 3), numpy.float32),
                      numpy.zeros(0, numpy.int32))
    assert y.shape == (0,)
    x = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    t = chainer.Variable(numpy.array([2, 0], numpy.int64))
    y = F.select_item(x, t)
    assert type(y.creator).__name__ == 'SelectItem'
    numpy.testing.assert_array_equal(y.array, [2, 3])


def test_select_item_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.select_item(x, numpy.zeros(2, numpy.float32))
    with pytest.raises(InvalidType, match='t.ndim == 1'):
        F.select_item(x, numpy.zeros((1, 2), numpy.int32))
    with pytest.raises(InvalidType, match='x.ndim == 2'):
        F.select_item(x[0], numpy.zeros(3, numpy.int32))
    with pytest.raises(InvalidType, match=r'x.shape\[0\] == t.shape\[0\]'):
        F.select_item(x, numpy.zeros(3, numpy.int32))
    with pytest.raises(IndexError, match=r'^index 3 is out of bounds for '
                       r'axis 1 with size 3$'):  # NumPy's, as Chainer's
        F.select_item(x, numpy.array([3, 0], numpy.int32))


def test_debug_mode_checks_labels():
    x = numpy.zeros((2, 3), numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='0 <= t < x.shape\\[1\\]'):
            F.select_item(x, numpy.array([0, -1], numpy.int32))
    # Outside debug mode a label past the end fails in NumPy's indexing,
    # with its words, as in Chainer; a negative one, which the indexing
    # would take from the end (a wrong item, silently), gets the debug
    # mode's error
    for t in ([0, -1], [-4, 0]):
        with pytest.raises(ValueError, match=r'^Each label `t` need to '
                           r'satisfty `0 <= t < x.shape\[1\]`$'):
            F.select_item(x, numpy.array(t, numpy.int32))
    with pytest.raises(IndexError) as e:
        F.select_item(x, numpy.array([0, 3], numpy.int32))
    assert str(e.value) == 'index 3 is out of bounds for axis 1 with size 3'
