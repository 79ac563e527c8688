"""``F.where``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (broadcast_error, check_same_dtype,
                                       invalid_type)
from chainer.variable import Variable


class Where(FunctionNode):
    """Chooses elements of ``x`` where ``condition`` holds, else of ``y``
    (``condition`` is an attribute, as in Chainer: exporters read it)."""

    def __init__(self, condition):
        self.condition = condition

    def forward(self, inputs):
        x, y = inputs
        condition = self.condition
        if condition.dtype != numpy.bool_:
            raise invalid_type(
                self, "condition.dtype == <class 'numpy.bool_'>",
                "{} != <class 'numpy.bool_'>".format(condition.dtype))
        check_same_dtype(self, x, y, names=('x', 'y'))
        try:
            numpy.broadcast_shapes(condition.shape, x.shape, y.shape)
        except ValueError:
            raise broadcast_error(self, condition.shape, x.shape, y.shape,
                                  names=('condition', 'x', 'y')) from None
        return backend.get_array_module(*inputs).where(condition, x, y),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        zero = gy.xp.zeros((), gy.dtype)
        # The engine sums broadcast gradients back to the inputs' shapes.
        gx = gy_ = None
        if 0 in indexes:
            gx = Where(self.condition).apply((gy, zero))[0]
        if 1 in indexes:
            gy_ = Where(self.condition).apply((zero, gy))[0]
        return gx, gy_


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
    if isinstance(condition, Variable):
        condition = condition.array
    elif not isinstance(condition, numpy.ndarray) and \
            not backend.is_gpu_array(condition):
        raise TypeError('where: condition must be a Variable or an array, '
                        'but got {}'.format(type(condition).__name__))
    return Where(condition).apply((x, y))[0]
