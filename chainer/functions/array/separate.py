"""``F.separate``: the slices of an array along an axis."""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments


class Separate(FunctionNode):
    """Splits an array into its slices along an axis (the axis removed)."""

    def __init__(self, axis):
        if not isinstance(axis, int):
            raise TypeError('separate: axis must be int, got {!r}'.format(
                axis))
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        if not -ndim <= self.axis < ndim:
            a = self.axis if self.axis >= 0 else -self.axis - 1
            raise invalid_type(self, 'x.ndim > {}'.format(a),
                               '{} <= {}'.format(ndim, a))
        self._axis = self.axis % ndim
        self._shape = x.shape[:self._axis] + x.shape[self._axis + 1:]
        lead = (slice(None),) * self._axis
        return tuple(x[lead + (i,)] for i in range(x.shape[self._axis]))

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.stack import stack
        gys = list(grad_outputs)
        if any(g is None for g in gys):
            xp = backend.get_array_module(*[g for g in gys if g is not None])
            zero = xp.zeros(self._shape, self.inputs[0].dtype)
            gys = [chainer.Variable(zero) if g is None else g for g in gys]
        return stack(gys, self._axis),


@names_bad_arguments
def separate(x, axis=0):
    """Separates an array along a given axis.

    Args:
        x (~chainer.Variable or array): The variable to separate.
        axis (int): The axis to separate along; it is removed.

    Returns:
        tuple of ~chainer.Variable: ``x.shape[axis]`` variables.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> [y.shape for y in F.separate(x, axis=1)]
    [(2,), (2,), (2,)]
    """
    return Separate(axis).apply((x,))
