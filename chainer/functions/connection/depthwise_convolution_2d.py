"""``F.depthwise_convolution_2d``: each input channel convolved with its
own filters (a grouped convolution with one channel per group)."""

from chainer.functions.connection.convolution_2d import convolution_2d
from chainer.functions._errors import names_bad_arguments


@names_bad_arguments
def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Two-dimensional depthwise convolution function.

    Input channel ``c`` is convolved with the ``m`` filters ``W[:, c]``;
    output channel ``c * m_count + m`` holds the result of filter ``m``.

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, h, w)``.
        W (~chainer.Variable or array): Filters ``(c_M, c_I, kh, kw)``
            (``c_M`` is the channel multiplier).
        b (~chainer.Variable or array): Bias ``(c_M * c_I,)`` (optional).
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding.

    Returns:
        ~chainer.Variable: Output ``(n, c_M * c_I, h_O, w_O)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 3, 5, 5), np.float32)
    >>> W = np.ones((2, 3, 3, 3), np.float32)
    >>> F.depthwise_convolution_2d(x, W).shape
    (1, 6, 3, 3)
    """
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.transpose import transpose
    multiplier, in_c, kh, kw = W.shape
    if len(x.shape) != 4 or x.shape[1] != in_c:
        from chainer.functions._errors import invalid_type
        raise invalid_type('depthwise_convolution_2d',
                           'x.ndim == 4 and x.shape[1] == W.shape[1]',
                           'x.shape = {}, W.shape = {}'.format(x.shape,
                                                               W.shape))
    W = reshape(transpose(W, (1, 0, 2, 3)), (in_c * multiplier, 1, kh, kw))
    return convolution_2d(x, W, b, stride, pad, groups=in_c)
