import numpy
import pytest

from chainer.utils import conv, conv_nd


def _windows_ref(x, k, s, p, out):
    """Windows by explicit indexing (with padding outside the image)."""
    nd = x.ndim - 2
    col = numpy.zeros(x.shape[:2] + tuple(k) + tuple(out), x.dtype)
    for off in numpy.ndindex(*k):
        for pos in numpy.ndindex(*out):
            src = [pos[i] * s[i] + off[i] - p[i] for i in range(nd)]
            if all(0 <= src[i] < x.shape[2 + i] for i in range(nd)):
                col[(slice(None), slice(None)) + off + pos] = \
                    x[(slice(None), slice(None)) + tuple(src)]
    return col


def test_im2col_col2im_2d_adjoint():
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 3, 5, 4)
    col = conv.im2col_cpu(x, 3, 2, 2, 1, 1, 1, cover_all=True)
    assert col.shape == (2, 3, 3, 2, 3, 5)
    assert col.flags.c_contiguous
    numpy.testing.assert_array_equal(
        col, _windows_ref(x, (3, 2), (2, 1), (1, 1), (3, 5)))
    # col2im is the adjoint of im2col: <im2col(x), c> == <x, col2im(c)>.
    c = rng.randn(*col.shape)
    back = conv.col2im_cpu(c, 2, 1, 1, 1, 5, 4)
    assert back.shape == x.shape
    numpy.testing.assert_allclose((col * c).sum(), (x * back).sum())


def test_im2col_dilate_and_outsize():
    x = numpy.arange(36, dtype=numpy.float32).reshape(1, 1, 6, 6)
    col = conv.im2col(x, 2, 2, 1, 1, 0, 0, dy=2, dx=3)
    assert col.shape == (1, 1, 2, 2, 4, 3)
    assert col[0, 0, 1, 1, 0, 0] == x[0, 0, 2, 3]
    col = conv.im2col_cpu(x, 2, 2, 1, 1, 0, 0, out_h=2, out_w=3)
    assert col.shape == (1, 1, 2, 2, 2, 3)


def test_nd_matches_2d_and_reference():
    rng = numpy.random.RandomState(1)
    x = rng.randn(1, 2, 4, 3, 5)
    col = conv_nd.im2col_nd_cpu(x, (2, 1, 3), (1, 2, 1), (1, 0, 2),
                                cover_all=True)
    out = tuple(col.shape[5:])
    numpy.testing.assert_array_equal(
        col, _windows_ref(x, (2, 1, 3), (1, 2, 1), (1, 0, 2), out))
    c = rng.randn(*col.shape)
    back = conv_nd.col2im_nd(c, (1, 2, 1), (1, 0, 2), (4, 3, 5))
    numpy.testing.assert_allclose((col * c).sum(), (x * back).sum())
    x2 = rng.randn(2, 2, 5, 5)
    numpy.testing.assert_array_equal(
        conv_nd.im2col_nd(x2, 3, 2, 1), conv.im2col(x2, 3, 3, 2, 2, 1, 1))


def test_outsize_helpers_and_as_tuple():
    assert conv.get_conv_outsize(5, 3, 2, 1) == 3
    assert conv.get_conv_outsize(6, 3, 2, 0, cover_all=True) == 3
    assert conv.get_deconv_outsize(3, 3, 2, 1) == 5
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple((1, 2), 2) == (1, 2)
    with pytest.raises(AssertionError, match='length 3'):  # as in Chainer
        conv_nd.as_tuple((1, 2), 3)
