import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def depthwise_ref(x, W, b, stride):
    m, c, kh, kw = W.shape
    n, _, h, w = x.shape
    oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
    y = numpy.zeros((n, c * m, oh, ow))
    for ci in range(c):
        for mi in range(m):
            for i in range(oh):
                for j in range(ow):
                    win = x[:, ci, i * stride:i * stride + kh,
                            j * stride:j * stride + kw]
                    y[:, ci * m + mi, i, j] = (win * W[mi, ci]).sum((1, 2))
    return y + b.reshape(1, -1, 1, 1)


def test_depthwise_convolution_2d():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (2, 3, 5, 4)).astype(dt),
                rng.uniform(-1, 1, (2, 3, 2, 2)).astype(dt),
                rng.uniform(-1, 1, (6,)).astype(dt))

    check_op(lambda x, W, b: F.depthwise_convolution_2d(x, W, b, stride=2),
             make, lambda x, W, b: depthwise_ref(x, W, b, 2),
             fwd_tol={numpy.float16: dict(atol=1e-2, rtol=1e-2)})


def test_channel_mismatch():
    with pytest.raises(InvalidType, match='depthwise'):
        F.depthwise_convolution_2d(numpy.ones((1, 2, 3, 3), numpy.float32),
                                   numpy.ones((1, 3, 2, 2), numpy.float32))
