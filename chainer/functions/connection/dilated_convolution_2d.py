"""``F.dilated_convolution_2d``: a convolution with dilated filters."""

from chainer.functions.connection.convolution_2d import convolution_2d
from chainer.functions._errors import names_bad_arguments


@names_bad_arguments
def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1,
                           cover_all=False):
    """Two-dimensional dilated convolution function.

    :func:`~chainer.functions.convolution_2d` with the filter taps
    ``dilate`` pixels apart (an effective kernel size of
    ``k + (k - 1) * (dilate - 1)``).

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, h, w)``.
        W (~chainer.Variable or array): Filters ``(c_O, c_I, kh, kw)``.
        b (~chainer.Variable or array): Bias ``(c_O,)`` (optional).
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding.
        dilate (int or pair of ints): Dilation factor.
        cover_all (bool): Let the windows cover every input pixel.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, h_O, w_O)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 1, 5, 5), np.float32)
    >>> W = np.ones((1, 1, 2, 2), np.float32)
    >>> F.dilated_convolution_2d(x, W, dilate=2).shape
    (1, 1, 3, 3)
    """
    return convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate)
