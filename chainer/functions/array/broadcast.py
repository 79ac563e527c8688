"""``F.broadcast`` and ``F.broadcast_to``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (broadcast_error, invalid_type,
                                       names_bad_arguments)


def _broadcast_to_error(func, x_shape, shape):
    # Chainer's text: too many dimensions, else the last mismatching axis
    if len(x_shape) > len(shape):
        return invalid_type(func, 'x.ndim <= len(shape)',
                            '{} > {}'.format(len(x_shape), len(shape)))
    for i in range(-1, -len(x_shape) - 1, -1):
        if x_shape[i] not in (1, shape[i]):
            break
    return invalid_type(
        func, 'in_type[0].shape[{0}] == {1} or in_type[0].shape[{0}] == 1'
        .format(i, shape[i]), 'in_type[0].shape: {}'.format(x_shape))


class BroadcastTo(FunctionNode):
    """Broadcasts an array to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        try:
            return xp.broadcast_to(x, self._shape),
        except ValueError:
            raise _broadcast_to_error(self, x.shape, self._shape) from None

    def backward(self, indexes, grad_outputs):
        # The engine sums the gradient back to the input's shape.
        return grad_outputs


@names_bad_arguments
def broadcast_to(x, shape):
    """Broadcasts a given variable to a given shape.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.broadcast_to(np.ones((1, 3), np.float32), (2, 3)).shape
    (2, 3)
    """
    if x.shape == tuple(shape):
        from chainer.variable import as_variable
        return as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]


class Broadcast(FunctionNode):
    """Broadcasts several arrays to their common shape."""

    def forward(self, xs):
        try:
            shape = numpy.broadcast_shapes(*[x.shape for x in xs])
        except ValueError:
            raise broadcast_error(
                self, *[x.shape for x in xs],
                names=['in_types[{}]'.format(i) for i in range(len(xs))]
            ) from None
        xp = backend.get_array_module(*xs)
        return tuple(xp.broadcast_to(x, shape) for x in xs)

    def backward(self, indexes, grad_outputs):
        return tuple(grad_outputs[i] for i in indexes)


def broadcast(*args):
    """Broadcasts given variables to a common shape.

    Returns:
        A Variable for one input, else a tuple of them.
    """
    if not args:
        raise invalid_type('Broadcast', 'in_types.size > 0', '0 <= 0')
    if len(args) == 1:
        from chainer.variable import as_variable
        return as_variable(args[0])
    return Broadcast().apply(args)
