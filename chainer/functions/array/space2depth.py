"""``F.space2depth``: spatial blocks into channels."""

from chainer.function_node import FunctionNode
from chainer.functions.array.depth2space import _check


class Space2Depth(FunctionNode):
    """``(N, C, r*H, r*W)`` to ``(N, r*r*C, H, W)``."""

    def __init__(self, r):
        self.r = r

    def forward(self, inputs):
        X, = inputs
        _check(self, X, 'x')
        r = self.r
        n, c, h, w = X.shape
        if h % r or w % r:
            raise ValueError(
                'space2depth: the height and width ({}, {}) must be '
                'multiples of r = {}'.format(h, w, r))
        y = X.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, r * r * c, h // r, w // r),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.depth2space import depth2space
        return depth2space(grad_outputs[0], self.r),


def space2depth(X, r):
    """Computes the space2depth transformation for subpixel calculations.

    Args:
        X (~chainer.Variable or array): A 4-D float array ``(N, C, H * r,
            W * r)``.
        r (int): The block size.

    Returns:
        ~chainer.Variable: An array ``(N, C * r * r, H, W)``, the inverse of
        :func:`depth2space`.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> X = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    >>> F.space2depth(X, 2).array.ravel()
    array([0., 1., 2., 3.], dtype=float32)
    """
    return Space2Depth(r).apply((X,))[0]
