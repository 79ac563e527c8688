"""The fast CPU paths of the convolution family keep Chainer's products.

A GEMM's float32 bits depend on where each row and column lies in the
product (not only on the operands' memory layouts), so the fast paths must
form exactly the matrices Chainer's ``numpy.tensordot`` forms.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import _conv
from chainer.functions.pooling import _pooling
from chainer.utils.conv_nd import im2col_view


def _rng():
    return numpy.random.RandomState(3)


def _chainer_deconv(x, W, stride, outsize):
    """Chainer's deconvolution on NumPy: tensordot, then col2im."""
    col = numpy.tensordot(W, x, (0, 1))  # (out_c, kh, kw, n, h, w)
    col = numpy.moveaxis(col, 3, 0)
    n, c, kh, kw, h, w = col.shape
    sy, sx = stride
    H, Wd = outsize
    img = numpy.zeros((n, c, H + sy - 1, Wd + sx - 1), x.dtype)
    for j in range(kh):
        for i in range(kw):
            img[:, :, j:j + sy * h:sy, i:i + sx * w:sx] += col[:, :, j, i]
    return img[:, :, :H, :Wd]


def test_deconv_forward_is_chainers_product():
    rng = _rng()
    x = rng.randn(32, 24, 6, 6).astype(numpy.float32)
    W = rng.randn(24, 10, 3, 3).astype(numpy.float32)
    for stride, outsize in (((1, 1), (8, 8)), ((2, 2), (13, 13))):
        y = _conv.deconv_forward(x, W, None, stride, (0, 0), outsize,
                                 (1, 1), 1)
        expect = _chainer_deconv(x, W, stride, outsize)
        assert y.flags.c_contiguous
        assert y.tobytes() == numpy.ascontiguousarray(expect).tobytes()


def test_max_pool_channels_last_same_as_contiguous():
    rng = _rng()
    a = rng.randint(-2, 3, size=(3, 4, 9, 8)).astype(numpy.float32)
    a[a == 0] = -0.0
    a[0, 0, 0, 0] = numpy.nan
    cl = numpy.ascontiguousarray(a.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    assert _pooling._channels_last(cl)
    for ksize, stride, pad in (((2, 2), (2, 2), (0, 0)),
                               ((3, 3), (2, 2), (1, 1))):
        outs = _pooling.pool_outs((9, 8), ksize, stride, pad, True)
        y1, i1 = _pooling.max_pool(a, ksize, stride, pad, outs)
        y2, i2 = _pooling.max_pool(cl, ksize, stride, pad, outs)
        assert y2.flags.c_contiguous and i2.flags.c_contiguous
        assert y1.tobytes() == y2.tobytes()
        assert i1.tobytes() == i2.tobytes()


def test_relu_grad_mixed_layout_keeps_layout_and_bits():
    rng = _rng()
    x = rng.randn(2, 3, 4, 5).astype(numpy.float32)
    x_cl = numpy.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(
        0, 3, 1, 2)
    gy = rng.randn(2, 3, 4, 5).astype(numpy.float32)
    xv = chainer.Variable(x_cl)
    y = F.relu(xv)
    y.grad = gy
    y.backward()
    mask = x_cl > 0
    expect = gy * mask  # numpy's own product of the mixed layouts
    from chainer.functions.activation.relu import ReLUGrad
    got, = ReLUGrad(mask).forward((gy,))
    assert got.strides == expect.strides
    assert got.tobytes() == expect.tobytes()
    assert xv.grad.tobytes() == expect.tobytes()


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape,ksize', [((3, 2, 7, 6), (3, 2)), ((2, 1, 5, 5), (5, 1)),
                                         ((1, 2, 4, 3), (2, 3)), ((0, 2, 4, 4), (2, 2))])
def test_copy_rows_equals_plain_copy(dtype, shape, ksize):
    # The window matrix copied a row at a time is the plain copy, bytewise.
    x = numpy.random.RandomState(0).randn(*shape).astype(dtype)
    x.flat[:1] = numpy.nan
    view = im2col_view(x, ksize, (1, 1), (0, 0)).transpose(1, 2, 3, 0, 4, 5)
    got = _conv._copy_rows(numpy, view)
    want = numpy.ascontiguousarray(view)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.flags.c_contiguous
    assert got.tobytes() == want.tobytes()
