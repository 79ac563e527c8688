import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, uniform

# F.deformable_convolution_2d_sampler of Chainer 7.8.1 on the inputs of
# test_matches_chainer.
CHAINER_OUT = [[[[-0.227622, -1.633023], [-0.331488, -1.09203]],
                [[-1.88811, 1.803287], [-1.602408, 0.546518]]]]


def _bilinear(img, y, x):
    h, w = img.shape[1:]
    y0, x0 = int(numpy.floor(y)), int(numpy.floor(x))
    v = 0
    for yi in (y0, y0 + 1):
        for xi in (x0, x0 + 1):
            if 0 <= yi < h and 0 <= xi < w:
                v = v + (1 - abs(y - yi)) * (1 - abs(x - xi)) * img[:, yi, xi]
    return v


def ref(x, offset, W, b=None, stride=(1, 1), pad=(0, 0)):
    n, c = x.shape[:2]
    out_c, _, kh, kw = W.shape
    oh, ow = offset.shape[2:]
    xp = numpy.pad(x, ((0, 0), (0, 0), (pad[0],) * 2, (pad[1],) * 2))
    y = numpy.zeros((n, out_c, oh, ow))
    for b_ in range(n):
        for i in range(oh):
            for j in range(ow):
                col = numpy.zeros((c, kh, kw))
                for ky in range(kh):
                    for kx in range(kw):
                        k = ky * kw + kx
                        col[:, ky, kx] = _bilinear(
                            xp[b_], i * stride[0] + ky + offset[b_, kh * kw + k, i, j],
                            j * stride[1] + kx + offset[b_, k, i, j])
                y[b_, :, i, j] = numpy.einsum('ckl,ockl->o', col, W)
    if b is not None:
        y += b[:, None, None]
    return y


def _offsets(rng, shape, dt):
    # Fractional parts kept away from 0 and 1 (the kinks of the sampling).
    o = rng.randint(-3, 3, shape) + rng.uniform(0.2, 0.8, shape)
    return o.astype(dt)


@pytest.mark.parametrize('with_b', [True, False])
def test_deformable_convolution(with_b):
    def make(rng, dt):
        args = (uniform(rng, (2, 2, 3, 4), dt), _offsets(rng, (2, 8, 2, 5), dt),
                uniform(rng, (3, 2, 2, 2), dt))
        return args + (uniform(rng, (3,), dt),) if with_b else args
    kw = dict(stride=(2, 1), pad=(1, 1))
    check_op(lambda *a: F.deformable_convolution_2d_sampler(*a, **kw), make,
             lambda *a: ref(*a, **kw),
             fwd_tol={numpy.float16: dict(atol=2e-2, rtol=2e-2)},
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)},
             dtypes=(numpy.float16, numpy.float64) if with_b else
             (numpy.float32,), eps=1e-3)


def test_matches_chainer():
    rng = numpy.random.RandomState(2)
    x = rng.randn(1, 2, 3, 3)
    W = rng.randn(2, 2, 2, 2)
    off = rng.randn(1, 8, 2, 2)
    b = rng.randn(2)
    y = F.deformable_convolution_2d_sampler(x, off, W, b, stride=2, pad=1)
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-6)


def test_zero_offset_is_convolution():
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 3, 5, 4).astype(numpy.float32)
    W = rng.randn(2, 3, 3, 2).astype(numpy.float32)
    off = numpy.zeros((2, 12, 3, 5), numpy.float32)
    y = F.deformable_convolution_2d_sampler(x, off, W, stride=(1, 1),
                                            pad=(0, 1))
    numpy.testing.assert_allclose(
        y.array, F.convolution_2d(x, W, pad=(0, 1)).array, atol=1e-5)


def test_errors():
    f = numpy.float32
    x = numpy.ones((2, 3, 5, 6), f)
    W = numpy.ones((4, 3, 2, 3), f)
    off = numpy.zeros((2, 12, 4, 4), f)
    with pytest.raises(ValueError, match='does not match the kernel size'):
        F.deformable_convolution_2d_sampler(x, off[:, :10], W)
    with pytest.raises(InvalidType, match='offset.dtype == x.dtype'):
        F.deformable_convolution_2d_sampler(x, off.astype(numpy.float64), W)
    with pytest.raises(InvalidType, match=r'x.shape\[1\] == W.shape\[1\]'):
        F.deformable_convolution_2d_sampler(x, off, W[:, :2])
    with pytest.raises(InvalidType, match=r'offset.shape\[0\]'):
        F.deformable_convolution_2d_sampler(x, off[:1], W)
    with pytest.raises(InvalidType, match='b.shape'):
        F.deformable_convolution_2d_sampler(x, off, W, numpy.ones(2, f))
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.deformable_convolution_2d_sampler(x[0], off, W)


def test_bias_is_added_last_as_in_chainer():
    # Chainer 7.8.1's output is made by a broadcast add of the bias to the
    # transposed product (creator '_ + _'), or by the transpose without one
    rng = numpy.random.RandomState(0)
    x = rng.rand(1, 2, 4, 4).astype(numpy.float32)
    W = rng.rand(3, 2, 2, 2).astype(numpy.float32)
    offset = numpy.zeros((1, 8, 3, 3), numpy.float32)
    b = rng.rand(3).astype(numpy.float32)
    y = F.deformable_convolution_2d_sampler(x, offset, W, b)
    assert y.creator.label == '_ + _'
    assert y.creator.inputs[0].creator.label == 'Transpose'
    y0 = F.deformable_convolution_2d_sampler(x, offset, W)
    assert y0.creator.label == 'Transpose'
    numpy.testing.assert_allclose(y.array, y0.array + b.reshape(1, 3, 1, 1),
                                  rtol=1e-6)
    # (zero offsets: the plain convolution)
    numpy.testing.assert_allclose(
        y.array, F.convolution_2d(x, W, b).array, rtol=1e-5)
