"""``F.diagonal``."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _diagonal_index(shape, offset, axis1, axis2):
    n = min(shape[axis1] + min(offset, 0), shape[axis2] - max(offset, 0))
    n = max(n, 0)
    return max(-offset, 0), max(offset, 0), n


class Diagonal(FunctionNode):
    """Takes diagonals of an array over two axes (put last)."""

    def __init__(self, offset, axis1, axis2):
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        if ndim < 2:
            raise invalid_type(self, 'x.ndim > 1', '{} <= 1'.format(ndim))
        for a in (self.axis1, self.axis2):
            need = a if a >= 0 else -a - 1
            if not ndim > need:
                raise invalid_type(self, 'x.ndim > {}'.format(need),
                                   '{} <= {}'.format(ndim, need))
        if self.axis1 % ndim == self.axis2 % ndim:
            raise ValueError('axis1 and axis2 cannot be the same')
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        # A copy: NumPy's diagonal is a read-only view.
        return xp.diagonal(x, self.offset, self.axis1, self.axis2).copy(),

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(self._in_shape, self.offset, self.axis1,
                            self.axis2).apply(grad_outputs)


class DiagonalGrad(FunctionNode):
    """Puts values on a diagonal of a zero array (Diagonal's gradient)."""

    def __init__(self, shape, offset, axis1, axis2):
        self.shape = shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, gy.dtype)
        ndim = len(self.shape)
        a1, a2 = self.axis1 % ndim, self.axis2 % ndim
        i0, j0, n = _diagonal_index(self.shape, self.offset, a1, a2)
        view = xp.moveaxis(gx, (a1, a2), (-2, -1))
        k = xp.arange(n)
        view[..., i0 + k, j0 + k] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return Diagonal(self.offset, self.axis1, self.axis2).apply(
            grad_outputs)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """Take diagonal

    Args:
        x (~chainer.Variable or array): Input variable, at least 2-D.
        offset (int): The diagonal's offset from the main one (positive:
            above it).
        axis1 (int): The first axis of the 2-D sub-arrays.
        axis2 (int): The second axis of the 2-D sub-arrays.

    Returns:
        ~chainer.Variable: The diagonals, as :func:`numpy.diagonal` (the
        diagonal is the last axis).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.diagonal(np.arange(9, dtype=np.float32).reshape(3, 3)).array
    array([0., 4., 8.], dtype=float32)
    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
