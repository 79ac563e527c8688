import numpy
import pytest

import chainer.functions as F
from op_harness import check_op


def avg_ref_nd(x, k, s, p, pad_value):
    nd = x.ndim - 2
    outs = [(x.shape[2 + i] + 2 * p - k) // s + 1 for i in range(nd)]
    widths = [(0, 0), (0, 0)] + [(p, p)] * nd
    xp = numpy.pad(x, widths)
    ones = numpy.pad(numpy.ones(x.shape[2:]), [(p, p)] * nd)
    y = numpy.zeros(x.shape[:2] + tuple(outs))
    for pos in numpy.ndindex(*outs):
        sl = tuple(slice(q * s, q * s + k) for q in pos)
        total = xp[(Ellipsis,) + sl].sum(tuple(range(2, 2 + nd)))
        count = ones[sl].sum() if pad_value is None else k ** nd
        y[(Ellipsis,) + pos] = total / count
    return y


@pytest.mark.parametrize('func,shape,pad_value', [
    (F.average_pooling_1d, (2, 2, 7), 0),
    (F.average_pooling_1d, (2, 2, 7), None),
    (F.average_pooling_3d, (1, 1, 4, 3, 5), None),
    (F.average_pooling_nd, (1, 2, 5, 4), 0),
])
def test_average_pooling_nd(func, shape, pad_value):
    check_op(lambda x: func(x, 3, 2, 1, pad_value=pad_value),
             lambda rng, dt: (rng.uniform(-1, 1, shape).astype(dt),),
             lambda x: avg_ref_nd(x, 3, 2, 1, pad_value))


def test_creator_and_errors():
    x = numpy.ones((1, 1, 4), numpy.float32)
    assert type(F.average_pooling_1d(x, 2).creator).__name__ == \
        'AveragePoolingND'
    with pytest.raises(ValueError, match='should be 3'):
        F.average_pooling_3d(x, 2)
    with pytest.raises(ValueError, match='pad_value'):
        F.average_pooling_1d(x, 2, pad_value=1)
