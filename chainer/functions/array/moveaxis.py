"""``F.moveaxis``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _as_axes(name, axes):
    if isinstance(axes, int):
        return (axes,)
    try:
        axes = tuple(axes)
    except TypeError:
        raise TypeError('moveaxis: {} must be an int or a sequence of ints, '
                        'got {!r}'.format(name, axes)) from None
    if not all(isinstance(a, int) for a in axes):
        raise TypeError('moveaxis: {} must be an int or a sequence of ints, '
                        'got {!r}'.format(name, axes))
    return axes


class Moveaxis(FunctionNode):
    """Moves axes of an array to new positions."""

    def __init__(self, source, destination):
        self.source = _as_axes('source', source)
        self.destination = _as_axes('destination', destination)
        if len(self.source) != len(self.destination):
            raise ValueError('`source` and `destination` arguments must have '
                             'the same number of elements')
        for name, axes in (('source', self.source),
                           ('destination', self.destination)):
            if len(set(axes)) != len(axes):
                raise ValueError('repeated axis in `{}` argument'.format(
                    name))

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        for a in self.source + self.destination:
            need = a if a >= 0 else -a - 1
            if not ndim > need:
                raise invalid_type(self, 'x.ndim > {}'.format(need),
                                   '{} <= {}'.format(ndim, need))
        src = [a % ndim for a in self.source]
        dst = [a % ndim for a in self.destination]
        if len(set(src)) != len(src) or len(set(dst)) != len(dst):
            raise ValueError('moveaxis: repeated axis in `source` or '
                             '`destination` argument')
        order = [a for a in range(ndim) if a not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        self._src, self._dst = src, dst
        return x.transpose(order),

    def backward(self, indexes, grad_outputs):
        return Moveaxis(self._dst, self._src).apply(grad_outputs)


def moveaxis(x, source, destination):
    """Move the source axes to the destination.

    Args:
        x (~chainer.Variable or array): Input variable.
        source (int or sequence of ints): The axes to move.
        destination (int or sequence of ints): Their new positions.

    Returns:
        ~chainer.Variable: The variable with its axes moved (as
        :func:`numpy.moveaxis`).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.moveaxis(np.zeros((2, 3, 4), np.float32), 0, -1).shape
    (3, 4, 2)
    """
    return Moveaxis(source, destination).apply((x,))[0]
