"""``F.squeeze``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


class Squeeze(FunctionNode):
    """Removes axes of length one."""

    def __init__(self, axis=None):
        if axis is not None:
            if isinstance(axis, int):
                axis = (axis,)
            elif not (isinstance(axis, tuple) and
                      all(isinstance(a, int) for a in axis)):
                raise TypeError('axis must be None, int or tuple of ints')
            if len(set(axis)) != len(axis):
                raise ValueError("duplicate value in 'axis'")
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        self._in_shape = x.shape
        if self.axis is None:
            return x.reshape(tuple(s for s in x.shape if s != 1)),
        axes = set()
        for a in self.axis:
            if a >= ndim:
                raise invalid_type(self, 'in_types[0].ndim > {}'.format(a),
                                   '{} <= {}'.format(ndim, a))
            if a < -ndim:
                raise invalid_type(self, '-in_types[0].ndim <= {}'.format(a),
                                   '{} > {}'.format(-ndim, a))
            a %= ndim
            if x.shape[a] != 1:
                # NumPy's message, as Chainer raises it.
                raise ValueError('cannot select an axis to squeeze out '
                                 'which has size not equal to one')
            axes.add(a)
        if len(axes) != len(self.axis):
            raise ValueError("duplicate value in 'axis'")
        return x.reshape(tuple(s for i, s in enumerate(x.shape)
                               if i not in axes)),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        return reshape(grad_outputs[0], self._in_shape),


def squeeze(x, axis=None):
    """Remove dimensions of size one from the shape of a ndarray.

    Args:
        x (~chainer.Variable or array): Input variable.
        axis (None, int or tuple of ints): The axes to remove (all of
            length one when None); each must have length one.

    Returns:
        ~chainer.Variable: The squeezed variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.squeeze(np.zeros((1, 2, 1), np.float32)).shape
    (2,)
    """
    return Squeeze(axis).apply((x,))[0]
