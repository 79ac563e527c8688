import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(r):
    def f(x):
        n, c, h, w = x.shape
        y = numpy.empty((n, c // (r * r), h * r, w * r), x.dtype)
        for k in range(c):
            # Channel (i * r + j) * C + ch goes to pixel (h*r + i, w*r + j).
            block, ch = divmod(k, c // (r * r))
            i, j = divmod(block, r)
            y[:, ch, i::r, j::r] = x[:, k]
        return y
    return f


@pytest.mark.parametrize('shape,r', [((1, 4, 2, 2), 2), ((2, 8, 1, 3), 2),
                                     ((1, 9, 2, 1), 3), ((0, 4, 1, 1), 2)])
def test_depth2space(shape, r):
    check_op(lambda x: F.depth2space(x, r),
             lambda rng, dt: (rng.randn(*shape).astype(dt),), _ref(r))


def test_depth2space_values():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 4, 2, 2)
    y = F.depth2space(x, 2)
    assert type(y.creator).__name__ == 'Depth2Space'
    numpy.testing.assert_array_equal(y.array[0, 0], [[0, 4, 1, 5],
                                                     [8, 12, 9, 13],
                                                     [2, 6, 3, 7],
                                                     [10, 14, 11, 15]])


def test_depth2space_errors():
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.depth2space(numpy.zeros((4, 2, 2), numpy.float32), 2)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.depth2space(numpy.zeros((1, 4, 2, 2), numpy.int32), 2)
    with pytest.raises(ValueError, match='multiple'):
        F.depth2space(numpy.zeros((1, 4, 2, 2), numpy.float32), 3)
