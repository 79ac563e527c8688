"""Elementwise linear interpolation ``p * x + (1 - p) * y``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_same_dtype,
                                       invalid_type)


class LinearInterpolate(FunctionNode):

    def forward(self, inputs):
        p, x, y = inputs
        check_float(self, p, 'p')
        check_same_dtype(self, x, p, names=('x', 'p'))
        check_same_dtype(self, y, p, names=('y', 'p'))
        for a, name in ((x, 'x'), (y, 'y')):
            if a.shape != p.shape:
                raise invalid_type(self, 'p.shape == {}.shape'.format(name),
                                   '{} != {}'.format(p.shape, a.shape))
        self.retain_inputs((0, 1, 2))
        # A dtype-typed 1: NumPy 1 would upcast 0-d p with a Python 1.
        return p * x + (p.dtype.type(1) - p) * y,

    def backward(self, indexes, grad_outputs):
        gz, = grad_outputs
        p, x, y = self.get_retained_inputs()
        # gy as gz - p * gz, as Chainer rounds it
        grads = {0: lambda: gz * (x - y), 1: lambda: gz * p,
                 2: lambda: gz - p * gz}
        return tuple([grads[i]() for i in indexes])


def linear_interpolate(p, x, y):
    """Elementwise linear-interpolation function.

    .. math::

        f(p, x, y) = p x + (1 - p) y

    Args:
        p (~chainer.Variable or array): Weights (float).
        x (~chainer.Variable or array): Input of the dtype and shape of
            ``p``.
        y (~chainer.Variable or array): Input of the dtype and shape of
            ``p``.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> p = np.array([0.25, 1.], np.float32)
    >>> F.linear_interpolate(p, np.ones(2, np.float32),
    ...                      np.zeros(2, np.float32)).array
    array([0.25, 1.  ], dtype=float32)
    """
    return LinearInterpolate().apply((p, x, y))[0]
