import numpy
import pytest

import chainer
from chainer import utils
from chainer.utils import sparse


def test_to_coo_2d():
    x = numpy.array([[0, 1., 0], [2., 0, 3.]], numpy.float32)
    c = utils.to_coo(x)
    assert isinstance(c, sparse.CooMatrix)
    assert isinstance(c.data, chainer.Variable)
    assert not c.data.requires_grad
    numpy.testing.assert_array_equal(c.data.array, [1, 2, 3])
    numpy.testing.assert_array_equal(c.row, [0, 1, 1])
    numpy.testing.assert_array_equal(c.col, [1, 0, 2])
    assert c.row.dtype == numpy.int32
    assert c.shape == (2, 3) and c.order == 'C'
    numpy.testing.assert_array_equal(c.to_dense(), x)


def test_to_coo_ldnz_and_batch():
    x = numpy.array([[0, 1., 0], [2., 0, 3.]], numpy.float32)
    c = utils.to_coo(x, ldnz=5, requires_grad=True)
    assert c.data.requires_grad
    numpy.testing.assert_array_equal(c.row, [0, 1, 1, -1, -1])
    numpy.testing.assert_array_equal(c.data.array, [1, 2, 3, 0, 0])
    numpy.testing.assert_array_equal(c.to_dense(), x)
    # A smaller ldnz than the non-zeros is widened.
    assert utils.to_coo(x, ldnz=1).data.shape == (3,)
    xb = numpy.stack([x, 2 * x])
    xb[1, 0, 1] = 0
    c = utils.to_coo(xb, ldnz=4)
    assert c.data.shape == (2, 4) and c.shape == (2, 3)
    numpy.testing.assert_array_equal(c.row, [[0, 1, 1, -1], [1, 1, -1, -1]])
    numpy.testing.assert_array_equal(c.to_dense(), xb)
    empty = utils.to_coo(numpy.zeros((2, 3), numpy.float32))
    assert empty.data.shape == (0,)
    numpy.testing.assert_array_equal(empty.to_dense(), numpy.zeros((2, 3)))


def test_get_order():
    assert utils.get_order(numpy.array([0, 0, 1]),
                           numpy.array([1, 2, 0])) == 'C'
    assert utils.get_order(numpy.array([0, 1, 0]),
                           numpy.array([0, 0, 1])) == 'F'
    assert utils.get_order(numpy.array([1, 0]), numpy.array([1, 0])) == \
        'other'
    assert utils.get_order(numpy.array([0, 0, 1, -1]),
                           numpy.array([1, 2, 0, -1])) == 'C'
    assert utils.get_order(numpy.array([[0, 1], [1, 0]]),
                           numpy.zeros((2, 2), numpy.int32)) == 'other'


def test_coo_matrix_sums_duplicates_and_orders():
    c = utils.CooMatrix(numpy.ones(2, numpy.float32), numpy.array([0, 0]),
                        numpy.array([1, 1]), (2, 2))
    numpy.testing.assert_array_equal(c.to_dense(), [[0, 2], [0, 0]])
    c = utils.CooMatrix(numpy.ones(2, numpy.float32), numpy.array([1, 0]),
                        numpy.array([0, 1]), (2, 2))
    assert c.order == 'F'


def test_coo_matrix_errors():
    d = numpy.ones(2, numpy.float32)
    r = numpy.array([0, 1])
    with pytest.raises(ValueError, match='shape of row and col'):
        utils.CooMatrix(d, r, numpy.array([0, 1, 1]), (2, 2))
    with pytest.raises(ValueError, match='length of shape'):
        utils.CooMatrix(d, r, r, (2, 2, 3))
    with pytest.raises(ValueError, match='order must be'):
        utils.CooMatrix(d, r, r, (2, 2), order='X')
    with pytest.raises(ValueError, match='ndim of x must be 2 or 3'):
        utils.to_coo(numpy.ones(3))


def test_get_order_checks_its_arguments():
    # as in Chainer
    with pytest.raises(ValueError, match='shape of row and col'):
        utils.get_order(numpy.array([0, 2, 4, 1]), numpy.array([1, 3, 0, 2, 4]))
    with pytest.raises(ValueError, match='invalid index combination'):
        utils.get_order(numpy.array([0, 2, -1]), numpy.array([1, -1, 4]))
    assert utils.get_order(numpy.array([0, -1]), numpy.array([1, -1])) == 'C'
