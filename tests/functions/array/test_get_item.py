import numpy
import pytest

import chainer
import chainer.functions as F
from op_harness import check_op

MASK = numpy.array([[True, False, True], [False, False, True]])


@pytest.mark.parametrize('index', [
    1, -1, slice(None, None, 2), (0, slice(1, None)), (Ellipsis, 1),
    (None, 1), (slice(None), None, Ellipsis), [0, 1, 0],
    numpy.array([1, 1, 0]), ([0, 1], [2, 2]), MASK,
    (slice(None), [2, 0, 2]), numpy.array([True, False]), [],
    (slice(None), numpy.array([[0, 1], [1, 1]])), (),
])
def test_get_item(index):
    check_op(lambda x: F.get_item(x, index),
             lambda rng, dt: (rng.randn(2, 3).astype(dt),),
             lambda x: x[tuple(index) if isinstance(index, list) and index
                         and isinstance(index[0], list) else index])


def test_get_item_0d():
    check_op(lambda x: F.get_item(x, ()),
             lambda rng, dt: (numpy.asarray(rng.randn()).astype(dt),),
             lambda x: x[()])


def test_get_item_repeated_indices_add_up():
    x = chainer.Variable(numpy.zeros(3, numpy.float32))
    y = x[[0, 0, 2, 0]]
    assert type(y.creator).__name__ == 'GetItem'
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [3, 0, 1])


def test_get_item_variable_operator_and_list_of_lists():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    v = chainer.Variable(x)
    numpy.testing.assert_array_equal(v[1, ::2].array, [3, 5])
    numpy.testing.assert_array_equal(F.get_item(x, [[0, 1], [2, 0]]).array,
                                     x[[0, 1], [2, 0]])


def test_get_item_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(IndexError, match='out of bounds'):
        F.get_item(x, 5)
    with pytest.raises(IndexError, match='only integers'):
        F.get_item(x, 1.0)
    # NumPy's message as it is (Chainer adds nothing)
    with pytest.raises(IndexError, match='^too many indices for array: '
                       'array is 2-dimensional, but 3 were indexed$'):
        F.get_item(x, (0, 0, 0))


@pytest.mark.parametrize('index,shape,total', [
    ([slice(0, 2, 2)], (1, 3, 4), 66.),
    ([slice(None), None], (2, 1, 3, 4), 276.),
    ([Ellipsis, 1], (2, 3), 66.),
    ([0, 1], (2, 3, 4), 276.),  # numbers only: one integer array
])
def test_list_holding_non_numbers_is_a_tuple_index(index, shape, total):
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    y = F.get_item(x, index)
    assert y.shape == shape
    assert float(y.array.sum()) == total
