"""Two-dimensional im2col / col2im (Chainer's ``chainer.utils.conv``).

Thin 2-D front ends of :mod:`chainer.utils.conv_nd`: columns have the shape
``(n, c, kh, kw, out_h, out_w)``.
"""

from chainer.utils import get_conv_outsize, get_deconv_outsize  # NOQA
from chainer.utils import conv_nd


def im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1,
               dx=1, out_h=None, out_w=None):
    """Columns ``(n, c, kh, kw, out_h, out_w)`` of ``img`` (a new array).

    >>> import numpy as np
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> im2col_cpu(x, 2, 2, 2, 2, 0, 0).shape
    (1, 1, 2, 2, 2, 2)
    """
    outs = None
    if out_h is not None or out_w is not None:
        h, w = img.shape[2:]
        outs = (out_h if out_h is not None else
                get_conv_outsize(h, kh, sy, ph, cover_all, dy),
                out_w if out_w is not None else
                get_conv_outsize(w, kw, sx, pw, cover_all, dx))
    return conv_nd.copy_array(conv_nd.im2col_view(
        img, (kh, kw), (sy, sx), (ph, pw), pval, cover_all, (dy, dx), outs))


def im2col_gpu(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """CuPy twin of :func:`im2col_cpu` (the same strided-view algorithm)."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx,
                      out_h, out_w)


def im2col(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
           out_h=None, out_w=None):
    """:func:`im2col_cpu` or :func:`im2col_gpu` by the array type."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx,
                      out_h, out_w)


def col2im_cpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sums columns ``(n, c, kh, kw, out_h, out_w)`` onto an ``(n, c, h, w)``
    image (the adjoint of :func:`im2col_cpu`)."""
    return conv_nd.col2im_add(col, (sy, sx), (ph, pw), (h, w),
                              (dy, dx)).copy()


def col2im_gpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """CuPy twin of :func:`col2im_cpu`."""
    return col2im_cpu(col, sy, sx, ph, pw, h, w, dy, dx)


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """:func:`col2im_cpu` or :func:`col2im_gpu` by the array type."""
    return col2im_cpu(col, sy, sx, ph, pw, h, w, dy, dx)
