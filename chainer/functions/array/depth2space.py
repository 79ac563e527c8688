"""``F.depth2space``: channels into spatial blocks (subpixel layout)."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type


def _check(func, x, name='x'):
    check_float(func, x, name)
    if x.ndim != 4:
        raise invalid_type(func, '{}.ndim == 4'.format(name),
                           '{} != 4'.format(x.ndim))


class Depth2Space(FunctionNode):
    """``(N, r*r*C, H, W)`` to ``(N, C, r*H, r*W)``."""

    def __init__(self, r):
        self.r = r

    def forward(self, inputs):
        X, = inputs
        _check(self, X, 'x')
        r = self.r
        n, c, h, w = X.shape
        if c % (r * r):
            raise ValueError(
                'depth2space: the channels ({}) must be a multiple of '
                'r * r = {}'.format(c, r * r))
        c //= r * r
        # Channel (i * r + j) * C + k goes to pixel (h * r + i, w * r + j).
        y = X.reshape(n, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(n, c, h * r, w * r),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.space2depth import space2depth
        return space2depth(grad_outputs[0], self.r),


def depth2space(X, r):
    """Computes the depth2space transformation for subpixel calculations.

    Args:
        X (~chainer.Variable or array): A 4-D float array ``(N, C * r * r,
            H, W)``.
        r (int): The block size.

    Returns:
        ~chainer.Variable: An array ``(N, C, H * r, W * r)``; channel
        ``(i * r + j) * C + c`` lands on pixel ``(h * r + i, w * r + j)``
        of channel ``c``. :func:`space2depth` is its inverse.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> X = np.arange(4, dtype=np.float32).reshape(1, 4, 1, 1)
    >>> F.depth2space(X, 2).array
    array([[[[0., 1.],
             [2., 3.]]]], dtype=float32)
    """
    return Depth2Space(r).apply((X,))[0]
