import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


def test_upsampling_2d_values():
    x = numpy.arange(25, dtype=numpy.float32).reshape(1, 1, 5, 5)
    y, idx = F.max_pooling_2d(x, 3, 2, 1, return_indices=True)
    up = F.upsampling_2d(y, idx, 3, 2, 1, outsize=(5, 5))
    expect = numpy.zeros((5, 5), numpy.float32)
    for v in y.array.ravel():
        expect.flat[int(v)] = v
    numpy.testing.assert_array_equal(up.array[0, 0], expect)
    assert F.upsampling_2d(y, idx, 3, 2, 1).shape == (1, 1, 4, 4)
    assert type(up.creator).__name__ == 'Upsampling2D'


def test_upsampling_2d_gradients():
    rng = numpy.random.RandomState(1)
    base = rng.permutation(48).reshape(1, 3, 4, 4).astype(numpy.float32)
    _, idx = F.max_pooling_2d(base, 2, return_indices=True)
    check_op(lambda x: F.upsampling_2d(x, on_device(idx), 2, outsize=(4, 4)),
             lambda rng, dt: (rng.uniform(-1, 1, (1, 3, 2, 2)).astype(dt),))


def test_errors():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(InvalidType, match='indexes.shape'):
        F.upsampling_2d(x, numpy.zeros((1, 1, 3, 3), numpy.int64), 2)
