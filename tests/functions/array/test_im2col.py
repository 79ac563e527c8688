import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def im2col_ref(x, k, s, p, dl):
    n, c, h, w = x.shape
    xp = numpy.pad(x, [(0, 0), (0, 0), (p, p), (p, p)])
    oh = (h + 2 * p - (k - 1) * dl - 1) // s + 1
    ow = (w + 2 * p - (k - 1) * dl - 1) // s + 1
    y = numpy.zeros((n, c, k, k, oh, ow))
    for dy in range(k):
        for dx in range(k):
            for i in range(oh):
                for j in range(ow):
                    y[:, :, dy, dx, i, j] = xp[:, :, i * s + dy * dl,
                                               j * s + dx * dl]
    return y.reshape(n, c * k * k, oh, ow)


@pytest.mark.parametrize('k,s,p,dl', [(2, 1, 0, 1), (3, 2, 1, 1),
                                      (2, 1, 1, 2)])
def test_im2col(k, s, p, dl):
    check_op(lambda x: F.im2col(x, k, s, p, dilate=dl),
             lambda rng, dt: (rng.uniform(-1, 1, (2, 2, 5, 4)).astype(dt),),
             lambda x: im2col_ref(x, k, s, p, dl))


def test_cover_all_shape_and_errors():
    x = numpy.ones((2, 3, 5, 5), numpy.float32)
    assert F.im2col(x, 2).shape == (2, 12, 4, 4)
    assert F.im2col(x, 3, 2, 1, cover_all=True, dilate=2).shape == \
        (2, 27, 2, 2)
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.im2col(x[0], 2)
