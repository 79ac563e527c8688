import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# F.shift of Chainer 7.8.1 on arange(81).reshape(1, 9, 3, 3).
CHAINER_OUT = [[[[4, 5, 0], [7, 8, 0], [0, 0, 0]],
                [[12, 13, 14], [15, 16, 17], [0, 0, 0]],
                [[0, 21, 22], [0, 24, 25], [0, 0, 0]],
                [[28, 29, 0], [31, 32, 0], [34, 35, 0]],
                [[0, 0, 0], [0, 36, 37], [0, 39, 40]],
                [[0, 45, 46], [0, 48, 49], [0, 51, 52]],
                [[0, 0, 0], [55, 56, 0], [58, 59, 0]],
                [[0, 0, 0], [63, 64, 65], [66, 67, 68]],
                [[72, 73, 74], [75, 76, 77], [78, 79, 80]]]]

# The read offset (dy, dx) of each channel group, as Chainer 7.8.1 shifts
# them with ksize=3 and with ksize=5 (dilate 1).
OFFSETS_3 = [(1, 1), (1, 0), (1, -1), (0, 1), (-1, -1), (0, -1), (-1, 1),
             (-1, 0), (0, 0)]
OFFSETS_5 = [(2, 2), (2, 1), (2, 0), (2, -1), (2, -2), (1, 2), (1, 1),
             (1, 0), (1, -1), (1, -2), (0, 2), (0, 1), (-2, -2), (0, -1),
             (0, -2), (-1, 2), (-1, 1), (-1, 0), (-1, -1), (-1, -2),
             (-2, 2), (-2, 1), (-2, 0), (-2, -1), (0, 0)]


def shift_ref(x, offsets, dilate=(1, 1)):
    n_groups = len(offsets)
    size = x.shape[1] // n_groups
    h, w = x.shape[2:]
    y = numpy.zeros_like(x)
    for c in range(x.shape[1]):
        dy, dx = offsets[min(c // size, n_groups - 1)]
        dy, dx = dy * dilate[0], dx * dilate[1]
        for i in range(h):
            for j in range(w):
                if 0 <= i + dy < h and 0 <= j + dx < w:
                    y[:, c, i, j] = x[:, c, i + dy, j + dx]
    return y


def test_matches_chainer():
    x = numpy.arange(81, dtype=numpy.float32).reshape(1, 9, 3, 3)
    y = F.shift(x)
    assert type(y.creator).__name__ == 'Shift'
    numpy.testing.assert_array_equal(y.array, CHAINER_OUT)


@pytest.mark.parametrize('shape,kw,offsets,dilate', [
    ((2, 9, 3, 4), dict(), OFFSETS_3, (1, 1)),
    ((1, 20, 4, 3), dict(dilate=2), OFFSETS_3, (2, 2)),   # remainder
    ((1, 25, 4, 5), dict(ksize=5), OFFSETS_5, (1, 1)),
    ((1, 9, 5, 4), dict(dilate=(-1, 3)), OFFSETS_3, (-1, 3)),
])
def test_shift(shape, kw, offsets, dilate):
    check_op(lambda x: F.shift(x, **kw),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: shift_ref(x, offsets, dilate))


def test_non_square_kernel_and_empty():
    x = numpy.arange(12, dtype=numpy.float32).reshape(1, 3, 1, 4)
    # ksize (1, 3): groups read x + 1, x - 1 and x itself.
    numpy.testing.assert_array_equal(
        F.shift(x, ksize=(1, 3)).array[0, :, 0],
        [[1, 2, 3, 0], [0, 4, 5, 6], [8, 9, 10, 11]])
    assert F.shift(numpy.zeros((0, 9, 0, 2), numpy.float32)).shape == \
        (0, 9, 0, 2)


def test_errors():
    x = numpy.zeros((1, 9, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match='kh must be odd'):
        F.shift(x, ksize=2)
    with pytest.raises(ValueError, match='kw must be odd'):
        F.shift(x, ksize=(3, 2))
    with pytest.raises(ValueError, match='dilate'):
        F.shift(x, dilate=0)
    with pytest.raises(InvalidType, match=r'x.shape\[1\] >= 9'):
        F.shift(x[:, :7])
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.shift(x[0])
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.shift(x.astype(numpy.int32))
