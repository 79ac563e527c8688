"""``F.pad_sequence``."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_same_dtype, invalid_type


class PadSequence(FunctionNode):
    """Stacks sequences of different lengths into one padded array."""

    def __init__(self, length, padding):
        self.length = length
        self.padding = padding

    def forward(self, xs):
        if len(xs) == 0:
            raise invalid_type(self, 'in_types.size > 0', '0 <= 0')
        x0 = xs[0]
        if x0.ndim == 0:
            raise invalid_type(self, 'x0.ndim > 0', '0 <= 0')
        for i, x in enumerate(xs):
            check_same_dtype(self, x, x0, ('x{}'.format(i), 'x0'))
            if x.shape[1:] != x0.shape[1:]:
                raise invalid_type(
                    self, 'x{}.shape[1:] == x0.shape[1:]'.format(i),
                    '{} != {}'.format(x.shape[1:], x0.shape[1:]))
            if self.length is not None and x.shape[0] > self.length:
                raise invalid_type(
                    self, 'x{}.shape[0] <= {}'.format(i, self.length),
                    '{} > {}'.format(x.shape[0], self.length))
        length = self.length
        if length is None:
            length = max(x.shape[0] for x in xs)
        xp = backend.get_array_module(*xs)
        y = xp.full((len(xs), length) + x0.shape[1:], self.padding, x0.dtype)
        for i, x in enumerate(xs):
            y[i, :len(x)] = x
        self._lengths = [len(x) for x in xs]
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.get_item import get_item
        gy, = grad_outputs
        return tuple(get_item(gy, (i, slice(None, self._lengths[i])))
                     for i in indexes)


def pad_sequence(xs, length=None, padding=0):
    """Pad given arrays to make a matrix.

    Args:
        xs (list of ~chainer.Variable or arrays): Arrays of one dtype whose
            shapes agree after the first axis.
        length (int or None): The padded length (the longest input's when
            None).
        padding: The value of the padded elements.

    Returns:
        ~chainer.Variable: An array of shape ``(len(xs), length) +
        xs[0].shape[1:]``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> xs = [np.ones(3, np.float32), np.ones(1, np.float32)]
    >>> F.pad_sequence(xs).array
    array([[1., 1., 1.],
           [1., 0., 0.]], dtype=float32)
    """
    return PadSequence(length, padding).apply(tuple(xs))[0]
