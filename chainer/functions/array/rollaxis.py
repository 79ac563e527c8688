"""``F.rollaxis``."""

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


class Rollaxis(FunctionNode):
    """Rolls an axis backwards to a given position."""

    def __init__(self, axis, start):
        if not isinstance(axis, int):
            raise TypeError('axis must be int')
        if not isinstance(start, int):
            raise TypeError('start must be int')
        self.axis = axis
        self.start = start

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        axis, start = self.axis, self.start
        need = axis if axis >= 0 else -axis - 1
        if not ndim > need:
            raise invalid_type(self, 'x.ndim > {}'.format(need),
                               '{} <= {}'.format(ndim, need))
        if start >= 0 and not ndim >= start:
            raise invalid_type(self, 'x.ndim >= {}'.format(start),
                               '{} < {}'.format(ndim, start))
        if start < 0 and not ndim > -start - 1:
            raise invalid_type(self, 'x.ndim > {}'.format(-start - 1),
                               '{} <= {}'.format(ndim, -start - 1))
        axis %= ndim
        if start < 0:
            start += ndim
        order = list(range(ndim))
        order.remove(axis)
        order.insert(start - 1 if axis < start else start, axis)
        self._order = order
        return x.transpose(order),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.transpose import transpose
        inv = tuple(numpy.argsort(self._order).tolist())
        return transpose(grad_outputs[0], inv),


def rollaxis(x, axis, start=0):
    """Roll the axis backwards to the given position.

    Args:
        x (~chainer.Variable or array): Input variable.
        axis (int): The axis to roll.
        start (int): The position before which it lands, as in
            :func:`numpy.rollaxis`.

    Returns:
        ~chainer.Variable: The rolled variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.rollaxis(np.zeros((2, 3, 4), np.float32), 2).shape
    (4, 2, 3)
    """
    return Rollaxis(axis, start).apply((x,))[0]
