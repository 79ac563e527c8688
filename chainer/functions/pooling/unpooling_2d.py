"""Two-dimensional unpooling: ``F.unpooling_2d``."""

from chainer.functions.pooling.max_pooling_nd import _Names2D
from chainer.functions.pooling.unpooling_nd import UnpoolingND
from chainer.functions.pooling.unpooling_nd import UnpoolingNDGrad
from chainer.functions._errors import names_bad_arguments


class Unpooling2D(_Names2D, UnpoolingND):
    """Unpooling over the two spatial axes."""

    outh = property(lambda self: None if self.outs is None else self.outs[0])
    outw = property(lambda self: None if self.outs is None else self.outs[1])

    def __init__(self, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        super().__init__(2, ksize, stride, pad, outsize, cover_all)


class Unpooling2DGrad(_Names2D, UnpoolingNDGrad):
    """The gradient of :class:`Unpooling2D`."""


Unpooling2D._grad_class = Unpooling2DGrad


@names_bad_arguments
def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of pooling for 2d array.

    Each element of ``x`` (``(n, c, h, w)``) is copied to the whole window
    it would pool; where windows overlap, the copies add up.

    Args:
        x (~chainer.Variable or array): Input ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size.
        stride (int, pair of ints or None): Stride (``ksize`` if None).
        pad (int or pair of ints): Padding cropped from the output.
        outsize (None or pair of ints): Output size ``(h_O, w_O)``.
        cover_all (bool): Whether the matching pooling used ``cover_all``
            (it decides the default output size).

    Returns:
        ~chainer.Variable: The output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 1, 2, 2), np.float32)
    >>> F.unpooling_2d(x, 2, cover_all=False).shape
    (1, 1, 4, 4)
    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
