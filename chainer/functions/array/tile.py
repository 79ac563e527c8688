"""``F.tile``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode


def _int(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, bool)


class Tile(FunctionNode):
    """Repeats a whole array along each axis."""

    def __init__(self, reps):
        if _int(reps):
            reps = (int(reps),)
        elif isinstance(reps, (tuple, list)) and all(_int(r) for r in reps):
            reps = tuple(int(r) for r in reps)
        else:
            raise TypeError('reps must be int or tuple of ints.\nActual: '
                            '{}'.format(type(reps)))
        if any(r < 0 for r in reps):
            raise ValueError('All elements in reps must be zero or larger')
        self.reps = reps

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return backend.get_array_module(x).tile(x, self.reps),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as sum_
        gy, = grad_outputs
        ndim = max(len(self._in_shape), len(self.reps))
        shape = (1,) * (ndim - len(self._in_shape)) + self._in_shape
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        # Each tiled axis of length r*s becomes (r, s); summing the r axes
        # adds up the copies.
        split = []
        for r, s in zip(reps, shape):
            split += [r, s]
        gx = sum_(reshape(gy, tuple(split)), axis=tuple(range(0, 2 * ndim, 2)))
        return reshape(gx, self._in_shape),


def tile(x, reps):
    """Construct an array by tiling a given array.

    Args:
        x (~chainer.Variable or array): Input variable.
        reps (int or tuple of ints): The number of copies along each axis,
            as in :func:`numpy.tile`.

    Returns:
        ~chainer.Variable: The tiled variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.tile(np.array([0., 1.], np.float32), 2).array
    array([0., 1., 0., 1.], dtype=float32)
    """
    return Tile(reps).apply((x,))[0]
