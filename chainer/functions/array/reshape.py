"""``F.reshape``."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments


def _count_known(shape):
    size = 1
    for s in shape:
        if s != -1:
            size *= s
    return size


class Reshape(FunctionNode):
    """Reshapes an input array without copy."""

    def __init__(self, shape):
        self.shape = shape

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        try:
            return x.reshape(self.shape),
        except ValueError:
            # Chainer's type-check wording, so printed errors match.
            size = x.size
            if -1 in self.shape:
                known = _count_known(self.shape)
                raise invalid_type(
                    self, 'prod(x.shape) % known_size(={}) == 0'.format(known),
                    '{} != 0'.format(size % known if known else size)) from None
            raise invalid_type(
                self, 'prod(x.shape) == prod({})'.format(self.shape),
                '{} != {}'.format(size, _count_known(self.shape))) from None

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self._in_shape),


@names_bad_arguments
def reshape(x, shape):
    """Reshapes an input variable without copy.

    Args:
        x (~chainer.Variable or array): Input variable.
        shape (tuple of int): The new shape (one element may be -1).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.reshape(np.arange(6, dtype=np.float32), (2, 3)).shape
    (2, 3)
    """
    if isinstance(shape, int):
        shape = (shape,)
    else:
        shape = tuple(shape)
    # Chainer asserts at most one unknown dimension.
    if shape.count(-1) > 1:
        # (an AssertionError too, as Chainer's assert)
        from chainer.functions._errors import AssertionValueError
        raise AssertionValueError(
            'reshape: only one dimension of the new shape can be -1, got '
            '{}'.format(shape))
    if x.shape == shape:
        from chainer.variable import as_variable
        return as_variable(x)
    return Reshape(shape).apply((x,))[0]
