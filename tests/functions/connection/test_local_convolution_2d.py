import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, uniform

# F.local_convolution_2d of Chainer 7.8.1 on the inputs of
# test_matches_chainer.
CHAINER_OUT = [[[[4.400998, 0.215687], [5.159912, 0.944163]],
                [[-1.43683, 3.66088], [-0.904569, -1.066962]]]]


def ref(x, W, b=None, stride=(1, 1)):
    out_c, oh, ow, c, kh, kw = W.shape
    y = numpy.zeros((len(x), out_c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = x[:, :, i * stride[0]:i * stride[0] + kh,
                    j * stride[1]:j * stride[1] + kw]
            y[:, :, i, j] = numpy.einsum('nckl,ockl->no', win, W[:, i, j])
    if b is not None:
        y += b
    return y


@pytest.mark.parametrize('with_b', [True, False])
def test_local_convolution_2d(with_b):
    def make(rng, dt):
        args = (uniform(rng, (2, 2, 4, 5), dt),
                uniform(rng, (3, 2, 3, 2, 2, 3), dt))
        return args + (uniform(rng, (3, 2, 3), dt),) if with_b else args
    check_op(lambda *a: F.local_convolution_2d(*a, stride=(2, 1)), make,
             lambda *a: ref(*a, stride=(2, 1)))


def test_matches_chainer():
    rng = numpy.random.RandomState(1)
    x = rng.randn(1, 2, 3, 4)
    W = rng.randn(2, 2, 2, 2, 2, 2)
    b = rng.randn(2, 2, 2)
    y = F.local_convolution_2d(x, W, b, stride=(1, 2))
    assert type(y.creator).__name__ == 'LocalConvolution2DFunction'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-6)


def test_mixed_weight_dtype_and_empty_batch():
    # As in Chainer, W is cast to x's dtype.
    x = chainer.Variable(numpy.ones((0, 1, 3, 3), numpy.float32))
    W = chainer.Variable(numpy.ones((2, 2, 2, 1, 2, 2)))
    y = F.local_convolution_2d(x, W)
    assert y.shape == (0, 2, 2, 2) and y.dtype == numpy.float32
    F.sum(y).backward()
    assert x.grad.shape == x.shape and W.grad.dtype == numpy.float64


def test_errors():
    f = numpy.float32
    x = numpy.ones((1, 3, 5, 6), f)
    W = numpy.ones((4, 2, 2, 3, 3, 3), f)
    b = numpy.ones((4, 2, 2), f)
    with pytest.raises(InvalidType, match=r'x.shape\[1\] == W.shape\[3\]'):
        F.local_convolution_2d(x, W[:, :, :, :2], b, stride=2)
    with pytest.raises(InvalidType, match=r'b.shape == W.shape\[:3\]'):
        F.local_convolution_2d(x, W, b[:, :1], stride=2)
    with pytest.raises(InvalidType, match='b.dtype == x.dtype'):
        F.local_convolution_2d(x, W, b.astype(numpy.float64), stride=2)
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.local_convolution_2d(x.astype(numpy.int32), W, stride=2)
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.local_convolution_2d(x[0], W, stride=2)
    # W's output size must fit the input (Chainer does not check it).
    with pytest.raises(InvalidType, match='output size'):
        F.local_convolution_2d(x, W, b, stride=1)
