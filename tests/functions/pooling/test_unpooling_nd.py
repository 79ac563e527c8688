import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def unpool_ref(x, k, s, p, outsize):
    nd = x.ndim - 2
    full = [max(outsize[i] + 2 * p, (x.shape[2 + i] - 1) * s + k)
            for i in range(nd)]
    y = numpy.zeros(x.shape[:2] + tuple(full))
    for pos in numpy.ndindex(*x.shape[2:]):
        sl = tuple(slice(q * s, q * s + k) for q in pos)
        y[(Ellipsis,) + sl] += x[(Ellipsis,) + pos][(Ellipsis,) +
                                                    (None,) * nd]
    return y[(Ellipsis,) + tuple(slice(p, p + o) for o in outsize)]


@pytest.mark.parametrize('func,shape,k,s,p,outsize,cover_all,expect', [
    (F.unpooling_1d, (2, 2, 3), 2, 2, 0, None, True, (5,)),
    (F.unpooling_1d, (2, 2, 3), 3, 2, 1, None, False, (5,)),
    (F.unpooling_3d, (1, 1, 2, 2, 3), 2, 2, 0, None, False, (4, 4, 6)),
    (F.unpooling_nd, (1, 2, 3, 3), 3, 2, 1, (5, 5), True, (5, 5)),
])
def test_unpooling_nd(func, shape, k, s, p, outsize, cover_all, expect):
    check_op(lambda x: func(x, k, s, p, outsize, cover_all),
             lambda rng, dt: (rng.uniform(-1, 1, shape).astype(dt),),
             lambda x: unpool_ref(x, k, s, p, expect))


def test_outsize_must_pool_back_to_the_input():
    # as in Chainer: pooling an output of outsize gives x's size
    x = numpy.ones((1, 2, 3, 3), numpy.float32)
    with pytest.raises(InvalidType, match=r'x.shape\[2:\] == \(4, 3\)'):
        F.unpooling_nd(x, 3, 2, 1, outsize=(6, 5))
    # an output size of 0 is an empty output
    y = F.unpooling_nd(numpy.ones((1, 1, 2), numpy.float32), 1, 3, 2,
                       outsize=(0,), cover_all=False)
    assert y.shape == (1, 1, 0)


def test_creator_and_errors():
    x = numpy.ones((1, 1, 2), numpy.float32)
    assert type(F.unpooling_1d(x, 2).creator).__name__ == 'UnpoolingND'
    with pytest.raises(ValueError, match='should be 3'):
        F.unpooling_3d(x, 2)
