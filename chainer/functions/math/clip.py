"""Clipping to an interval."""

from chainer import backend
from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Clip(FunctionNode):

    def __init__(self, x_min, x_max):
        self.x_min = x_min
        self.x_max = x_max

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        # A NumPy float64 bound must not promote the result.
        return utils.force_array(xp.clip(x, self.x_min, self.x_max),
                                 x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        x = x.array
        # Gradients at the edges are 1 (the interval is closed).
        mask = None
        if self.x_min is not None:
            mask = x >= self.x_min
        if self.x_max is not None:
            upper = x <= self.x_max
            mask = upper if mask is None else mask & upper
        return grad_outputs[0] * mask,


def clip(x, x_min, x_max):
    """Clips (limits) elements of input variable.

    Given an interval ``[x_min, x_max]``, elements outside the interval are
    clipped to the interval edges.  Its gradients at ``x_min`` and
    ``x_max`` are regarded as 1.

    Args:
        x (~chainer.Variable or array): Input variable to be clipped
            (float).
        x_min (float): Minimum value (``None`` for no lower bound).
        x_max (float): Maximum value (``None`` for no upper bound).

    Returns:
        ~chainer.Variable: Output variable.

    Raises:
        ValueError: Both bounds are ``None``, or ``x_min >= x_max``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.clip(np.array([-2., 0.5, 3.], np.float32), -1., 1.).array
    array([-1. ,  0.5,  1. ], dtype=float32)
    """
    if x_min is None and x_max is None:
        raise ValueError('must set either max or min')
    if x_min is not None and x_max is not None and x_min >= x_max:
        raise ValueError('x_min must be less than x_max.')
    return Clip(x_min, x_max).apply((x,))[0]
