import numpy
import pytest

import chainer
import chainer.functions as F
from op_harness import check_op
from numpy.lib.stride_tricks import as_strided as np_as_strided


def _ref(shape, strides, offset=0):
    def f(x):
        flat = numpy.ascontiguousarray(x).ravel()[offset:]
        item = flat.itemsize
        return np_as_strided(flat, shape, [s * item for s in strides]).copy()
    return f


@pytest.mark.parametrize('shape,strides,offset', [
    ((3, 2), (1, 1), None),      # overlapping windows
    ((2, 2), (3, 1), 1),
    ((2, 3), (1, 2), None),       # a transposed view
    ((), (), 4),
    ((0, 3), (1, 1), None),
])
def test_as_strided(shape, strides, offset):
    check_op(lambda x: F.as_strided(x, shape, strides, offset),
             lambda rng, dt: (rng.randn(6).astype(dt),),
             _ref(shape, strides, offset or 0))


def test_as_strided_views_storage():
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    y = F.as_strided(x[:, 1], (2, 2), (1, 1))
    assert type(y.creator).__name__ == 'AsStrided'
    numpy.testing.assert_array_equal(y.array, [[4, 5], [5, 6]])
    y = F.as_strided(x[1], (2, 2), (1, 1), 0)
    numpy.testing.assert_array_equal(y.array, [[0, 1], [1, 2]])


def test_as_strided_gradient_adds_overlaps():
    v = chainer.Variable(numpy.zeros(4, numpy.float32))
    F.sum(F.as_strided(v, (3, 2), (1, 1))).backward()
    numpy.testing.assert_array_equal(v.grad, [1, 2, 2, 1])


def test_as_strided_errors():
    x = numpy.zeros(6, numpy.float32)
    with pytest.raises(ValueError, match='too large'):
        F.as_strided(x, (7,), (1,))
    with pytest.raises(ValueError, match='too small'):
        F.as_strided(x, (2,), (-1,))
    with pytest.raises(ValueError, match='same length'):
        F.as_strided(x, (2, 2), (1,))
    with pytest.raises(TypeError):
        F.as_strided(x, (2,), (1.5,))


def test_stride_array_is_a_view_of_the_storage():
    from chainer.functions.array.as_strided import _stride_array
    base = numpy.arange(8, dtype=numpy.float32)
    v = _stride_array(base, (3, 3), (-1, 2), 3)
    numpy.testing.assert_array_equal(v, [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    assert numpy.shares_memory(v, base)
    # as_strided on that view counts from the storage, not from v[0, 0]
    y = F.as_strided(v, (3, 3), (1, 2), 0)
    numpy.testing.assert_array_equal(y.array,
                                     [[0, 2, 4], [1, 3, 5], [2, 4, 6]])


def test_elements_sharing_memory_share_the_gradient():
    from chainer.functions.array.as_strided import _stride_array
    x = chainer.Variable(_stride_array(
        numpy.arange(8, dtype=numpy.float64), (3, 3), (-1, 2), 3))
    y = F.as_strided(x, (3, 3), (1, 2), 0)
    gx, = chainer.grad([y], [x], grad_outputs=[numpy.ones((3, 3))])
    # storage 3 and 5 each appear twice in x: their gradient is halved
    numpy.testing.assert_array_equal(
        gx.array, [[0.5, 0.5, 0.], [2., 2., 1.], [1., 0.5, 0.5]])


def test_integer_input_cannot_be_differentiated():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.int32))
    y = F.as_strided(x, (4,), (-1,), 3)
    numpy.testing.assert_array_equal(y.array, [3, 2, 1, 0])
    with pytest.raises(TypeError, match='floating point'):
        chainer.grad([y], [x], grad_outputs=[numpy.ones(4, numpy.int32)])
