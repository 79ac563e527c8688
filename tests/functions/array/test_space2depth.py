import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(r):
    def f(x):
        n, c, h, w = x.shape
        y = numpy.empty((n, c * r * r, h // r, w // r), x.dtype)
        for i in range(r):
            for j in range(r):
                y[:, (i * r + j) * c:(i * r + j + 1) * c] = x[:, :, i::r, j::r]
        return y
    return f


@pytest.mark.parametrize('shape,r', [((1, 1, 4, 4), 2), ((2, 2, 2, 6), 2),
                                     ((1, 1, 3, 3), 3)])
def test_space2depth(shape, r):
    check_op(lambda x: F.space2depth(x, r),
             lambda rng, dt: (rng.randn(*shape).astype(dt),), _ref(r))


def test_space2depth_inverts_depth2space():
    x = numpy.random.randn(2, 8, 2, 3).astype(numpy.float32)
    y = F.space2depth(F.depth2space(x, 2), 2)
    assert type(y.creator).__name__ == 'Space2Depth'
    numpy.testing.assert_array_equal(y.array, x)


def test_space2depth_errors():
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.space2depth(numpy.zeros((1, 4, 4), numpy.float32), 2)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.space2depth(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)
    with pytest.raises(ValueError, match='multiples'):
        F.space2depth(numpy.zeros((1, 1, 4, 4), numpy.float32), 3)
