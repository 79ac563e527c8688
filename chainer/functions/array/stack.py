"""``F.stack``: joins arrays along a new axis."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.functions.array.concat import _check_joinable


class Stack(FunctionNode):
    """Stacks arrays of one shape along a new axis."""

    def __init__(self, axis=0):
        if not isinstance(axis, int):
            raise TypeError('stack: axis must be int, got {!r}'.format(axis))
        self.axis = axis

    def forward(self, xs):
        _check_joinable(self, xs, None, 'in_types[{}]')
        ndim = xs[0].ndim
        axis = self.axis
        if axis > ndim:
            raise invalid_type(self, 'in_types[0].ndim >= {}'.format(axis),
                               '{} < {}'.format(ndim, axis))
        if axis < -ndim - 1:
            raise invalid_type(
                self, '-in_types[0].ndim - 1 <= {}'.format(axis),
                '{} > {}'.format(-ndim - 1, axis))
        self._axis = axis % (ndim + 1)
        return backend.get_array_module(*xs).stack(xs, axis=self._axis),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.separate import separate
        gxs = separate(grad_outputs[0], self._axis)
        return tuple(gxs[i] for i in indexes)


def stack(xs, axis=0):
    """Concatenate variables along a new axis.

    Args:
        xs (list of ~chainer.Variable or arrays): Variables of one shape
            and dtype.
        axis (int): Where the new axis goes, in ``[-ndim - 1, ndim]``.

    Returns:
        ~chainer.Variable: A variable with one more dimension.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.zeros((2, 3), np.float32)
    >>> F.stack([x, x, x], axis=1).shape
    (2, 3, 3)
    """
    return Stack(axis).apply(tuple(xs))[0]
