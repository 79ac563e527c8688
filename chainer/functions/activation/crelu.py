"""``F.crelu``: relu(x) and relu(-x) concatenated along an axis."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type


class CReLU(FunctionNode):
    """Concatenated Rectified Linear Unit."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('crelu: axis must be an int, got {!r}'.format(
                axis))
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        axis = self.axis
        if not -x.ndim <= axis < x.ndim:
            raise invalid_type(
                self, 'x.ndim > {}'.format(axis if axis >= 0 else -axis - 1),
                '{} <= {}'.format(x.ndim, axis if axis >= 0 else -axis - 1))
        self._axis = axis % x.ndim
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        # zero first: max(0, -0.0) is -0.0, the sign Chainer prints
        return xp.concatenate((xp.maximum(0, x), xp.maximum(0, -x)),
                              axis=self._axis),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        gy, = grad_outputs
        n = x.shape[self._axis]
        lead = (slice(None),) * self._axis
        g_pos = gy[lead + (slice(None, n),)]
        g_neg = gy[lead + (slice(n, None),)]
        return g_pos * (x > 0) - g_neg * (x < 0),


def crelu(x, axis=1):
    """Concatenated Rectified Linear Unit function.

    .. math:: f(x) = (\\max(0, x), \\max(0, -x)),

    the two halves concatenated along ``axis``, so that axis doubles.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        axis (int): Axis along which the outputs are concatenated.

    Returns:
        ~chainer.Variable: Output variable, ``x.shape[axis]`` doubled.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.crelu(np.array([[-1., 2.]], np.float32)).array
    array([[0., 2., 1., 0.]], dtype=float32)
    """
    y, = CReLU(axis).apply((x,))
    return y
