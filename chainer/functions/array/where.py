"""``F.where``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import broadcast_error, invalid_type


class Where(FunctionNode):
    """Chooses elements of ``x`` where ``condition`` holds, else of ``y``."""

    def forward(self, inputs):
        condition, x, y = inputs
        if condition.dtype != numpy.bool_:
            raise invalid_type(
                self, "condition.dtype == <class 'numpy.bool_'>",
                "{} != <class 'numpy.bool_'>".format(condition.dtype))
        if x.dtype != y.dtype:
            raise invalid_type(self, 'x.dtype == y.dtype',
                               '{} != {}'.format(x.dtype, y.dtype))
        try:
            numpy.broadcast_shapes(condition.shape, x.shape, y.shape)
        except ValueError:
            raise broadcast_error(self, condition.shape, x.shape, y.shape,
                                  names=('condition', 'x', 'y')) from None
        self.retain_inputs((0,))
        return backend.get_array_module(*inputs).where(condition, x, y),

    def backward(self, indexes, grad_outputs):
        condition, = self.get_retained_inputs()
        gy, = grad_outputs
        zero = gy.xp.zeros((), gy.dtype)
        # The engine sums broadcast gradients back to the inputs' shapes.
        ret = [None]
        if 1 in indexes:
            ret.append(Where().apply((condition, gy, zero))[0])
        else:
            ret.append(None)
        if 2 in indexes:
            ret.append(Where().apply((condition, zero, gy))[0])
        else:
            ret.append(None)
        return tuple(ret)


def where(condition, x, y):
    """Choose elements depending on condition.

    Args:
        condition (~chainer.Variable or array): A boolean array.
        x (~chainer.Variable or array): The values where ``condition`` is
            True.
        y (~chainer.Variable or array): The values elsewhere (same dtype as
            ``x``).

    The three are broadcast to a common shape.

    Returns:
        ~chainer.Variable: The chosen elements.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> c = np.array([True, False, True])
    >>> x = np.ones(3, np.float32)
    >>> F.where(c, x, np.zeros(3, np.float32)).array
    array([1., 0., 1.], dtype=float32)
    """
    return Where().apply((condition, x, y))[0]
