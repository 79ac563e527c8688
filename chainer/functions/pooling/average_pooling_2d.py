"""Two-dimensional average pooling: ``F.average_pooling_2d``."""

from chainer.functions.pooling.average_pooling_nd import AveragePoolingND
from chainer.functions.pooling.average_pooling_nd import AveragePoolingNDGrad
from chainer.functions.pooling.max_pooling_nd import _Names2D
from chainer.functions._errors import names_bad_arguments


class AveragePooling2D(_Names2D, AveragePoolingND):
    """Average pooling over the two spatial axes (padding counts as
    zeros)."""

    def __init__(self, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        super().__init__(2, ksize, stride, pad, cover_all, 0)


class AveragePooling2DGrad(_Names2D, AveragePoolingNDGrad):
    """The gradient of :class:`AveragePooling2D`."""


AveragePooling2D._grad_class = AveragePooling2DGrad


@names_bad_arguments
def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Spatial average pooling function.

    Averages each ``ksize`` window of an ``(n, c, h, w)`` input; the zero
    padding counts in the average (each window is divided by
    ``kh * kw``).

    Args:
        x (~chainer.Variable or array): Input ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size.
        stride (int, pair of ints or None): Stride (``ksize`` if None).
        pad (int or pair of ints): Zero padding.

    Returns:
        ~chainer.Variable: The output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> F.average_pooling_2d(x, 2).shape
    (1, 1, 2, 2)
    """
    return AveragePooling2D(ksize, stride, pad, False).apply((x,))[0]
