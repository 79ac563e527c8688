import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

IND = numpy.array([2, 0, 3, 1], numpy.int32)


@pytest.mark.parametrize('axis,inv', [(0, False), (1, True), (-1, False),
                                      (-2, True)])
def test_permutate(axis, inv):
    shape = [2, 2]
    shape[axis] = 4

    def ref(x):
        ind = numpy.argsort(IND) if inv else IND
        return numpy.take(x, ind, axis=axis)
    check_op(lambda x: F.permutate(x, IND, axis, inv),
             lambda rng, dt: (rng.randn(*shape).astype(dt),), ref)


def test_permutate_variable_indices():
    x = numpy.arange(4, dtype=numpy.float32)
    y = F.permutate(x, chainer.Variable(IND.astype(numpy.int64)))
    assert type(y.creator).__name__ == 'Permutate'
    numpy.testing.assert_array_equal(y.array, [2, 0, 3, 1])
    y = F.permutate(x, IND, inv=True)
    numpy.testing.assert_array_equal(y.array, [1, 3, 0, 2])


def test_permutate_errors():
    x = numpy.zeros((4, 2), numpy.float32)
    with pytest.raises(ValueError, match='one-dimensional int'):
        F.permutate(x, IND.astype(numpy.float32))
    with pytest.raises(ValueError, match='one-dimensional int'):
        F.permutate(x, IND.reshape(2, 2))
    with pytest.raises(InvalidType, match='x.ndim > 2'):
        F.permutate(x, IND, axis=2)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='duplicate'):
            F.permutate(x, numpy.array([0, 0, 1, 2], numpy.int32))
        with pytest.raises(ValueError, match='Out of bounds'):
            F.permutate(x, numpy.array([0, 4, 1, 2], numpy.int32))
    # Outside debug mode an index past the end fails in NumPy's indexing,
    # in its words (as in Chainer); a repeated or negative index, which the
    # indexing would take silently (no permutation), gets the debug mode's
    # error
    with pytest.raises(IndexError, match=r'^index 4 is out of bounds'):
        F.permutate(x, numpy.array([0, 4, 1, 2], numpy.int32))
    with pytest.raises(ValueError,
                       match=r'^indices contains duplicate value: 0$'):
        F.permutate(x, numpy.array([0, 0, 1, 2], numpy.int32))
    with pytest.raises(ValueError, match=r'^Out of bounds index: -1$'):
        F.permutate(x, numpy.array([0, -1, 1, 2], numpy.int32))
