import numpy
import pytest

import chainer.functions as F
from op_harness import check_op


def _ref(slices):
    def f(a, b):
        y = a.copy()
        numpy.add.at(y, slices, b)
        return y
    return f


@pytest.mark.parametrize('slices,bshape', [
    (0, (3, 4)),
    ((slice(None), [0, 0]), (2, 2, 4)),
    (([1, 0, 1],), (3, 3, 4)),
    ((Ellipsis, 1), (2, 3)),
    (numpy.array([True, False]), (1, 3, 4)),
    ([], (0, 3, 4)),
])
def test_scatter_add(slices, bshape):
    check_op(lambda a, b: F.scatter_add(a, slices, b),
             lambda rng, dt: (rng.randn(2, 3, 4).astype(dt),
                              rng.randn(*bshape).astype(dt)),
             _ref(slices))


def test_scatter_add_values():
    a = numpy.zeros(3, numpy.float32)
    y = F.scatter_add(a, [0, 0, 2], numpy.ones(3, numpy.float64))
    assert type(y.creator).__name__ == 'ScatterAdd'
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array, [2, 0, 1])
    numpy.testing.assert_array_equal(a, [0, 0, 0])


def test_scatter_add_errors():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='broadcasting'):
        F.scatter_add(a, 0, numpy.ones(1, numpy.float32))
    with pytest.raises(IndexError):
        F.scatter_add(a, 5, numpy.ones(3, numpy.float32))


def test_scatter_add_refuses_two_ellipses():
    a = numpy.zeros((4, 3, 2))
    with pytest.raises(ValueError, match='only one Ellipsis'):
        F.scatter_add(a, (Ellipsis, Ellipsis), numpy.zeros((2, 2)))


def test_scatter_add_refuses_more_indices_than_axes():
    from chainer.utils import type_check
    a = numpy.zeros((4, 3, 2))
    with pytest.raises(type_check.InvalidType, match='ndim >= 4'):
        F.scatter_add(a, (0, 0, 0, 0), numpy.zeros(()))
