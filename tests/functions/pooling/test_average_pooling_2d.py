import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def avg_ref(x, k, s, p):
    xp = numpy.pad(x, [(0, 0), (0, 0), (p, p), (p, p)])
    oh = (x.shape[2] + 2 * p - k) // s + 1
    ow = (x.shape[3] + 2 * p - k) // s + 1
    y = numpy.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = xp[:, :, i * s:i * s + k,
                               j * s:j * s + k].mean((2, 3))
    return y


@pytest.mark.parametrize('shape,k,s,p', [
    ((2, 2, 4, 6), 2, 2, 0),
    ((1, 2, 5, 5), 3, 2, 1),   # padding counts as zeros
    ((1, 1, 3, 3), 2, 1, 2),   # pad larger than the kernel
])
def test_average_pooling_2d(shape, k, s, p):
    check_op(lambda x: F.average_pooling_2d(x, k, s, p),
             lambda rng, dt: (rng.uniform(-1, 1, shape).astype(dt),),
             lambda x: avg_ref(x, k, s, p))


def test_creator_and_errors():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    assert type(F.average_pooling_2d(x, 2).creator).__name__ == \
        'AveragePooling2D'
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.ndim == 4'):
        F.average_pooling_2d(x[0], 2)
