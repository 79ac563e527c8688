"""The window argmax of max pooling: the first offset among ties (+-0
equal), the first NaN where there is one (numpy.argmax over the windows, as
Chainer takes it), whatever the input layout."""

import numpy
import pytest

from chainer.functions.pooling import _pooling


def _reference(x, ksize, stride, pad, outs):
    xp = numpy.pad(x.astype(numpy.float64), ((0, 0), (0, 0)) + tuple(
        (p, p + k) for p, k in zip(pad, ksize)), constant_values=-numpy.inf)
    n, c = x.shape[:2]
    idx = numpy.zeros((n, c) + outs, numpy.int64)
    for i in range(outs[0]):
        for j in range(outs[1]):
            h, w = i * stride[0], j * stride[1]
            win = xp[:, :, h:h + ksize[0], w:w + ksize[1]].reshape(n, c, -1)
            idx[:, :, i, j] = win.argmax(axis=2)
    return idx


@pytest.mark.parametrize('ksize,stride,pad', [
    ((2, 2), (2, 2), (0, 0)), ((2, 3), (1, 2), (1, 1)), ((1, 2), (1, 1), (0, 1))])
@pytest.mark.parametrize('channels_last', [False, True])
def test_first_index(ksize, stride, pad, channels_last):
    rng = numpy.random.RandomState(3)
    x = rng.randint(-2, 2, (2, 3, 6, 7)).astype(numpy.float32)
    x[x == 0] = numpy.where(rng.rand(int((x == 0).sum())) < 0.5, -0.0, 0.0)
    x.flat[[1, 17, 40]] = numpy.nan
    if channels_last:
        x = numpy.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    outs = _pooling.pool_outs(x.shape[2:], ksize, stride, pad, False)
    y, idx = _pooling.max_pool(x, ksize, stride, pad, outs)
    assert idx.dtype == numpy.int8
    assert y.flags.c_contiguous and idx.flags.c_contiguous
    numpy.testing.assert_array_equal(idx, _reference(x, ksize, stride, pad, outs))
