"""Elementwise floating point remainder (C's ``fmod``)."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_same_dtype,
                                       names_bad_arguments)


class Fmod(FunctionNode):

    @property
    def label(self):
        return 'fmod'

    def forward(self, inputs):
        x, divisor = inputs
        check_float(self, x)
        check_same_dtype(self, x, divisor, names=('x', 'divisor'))
        self.retain_inputs((0, 1))
        # x's dtype (mixed dtypes, with type_check off, divide promoted)
        return backend.get_array_module(x).fmod(x, divisor).astype(
            x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        x, divisor = self.get_retained_inputs()
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            # y = x - d * fix(x / d); fix is piecewise constant, so it is
            # a constant here.
            xp = x.xp
            q = xp.fix(x.array / divisor.array)
            ret.append(gy * -q)
        return tuple(ret)


@names_bad_arguments
def fmod(x, divisor):
    """Elementwise mod function.

    .. math::
       y_i = x_i \\bmod \\mathrm{divisor}

    The result has the sign of ``x`` (C's ``fmod``, not Python's ``%``).

    Args:
        x (~chainer.Variable or array): Input (float).
        divisor (~chainer.Variable or array): Input divisor, of the same
            dtype, broadcastable against ``x``.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.fmod(np.array([5.5, -5.5], np.float32),
    ...        np.array([2., 2.], np.float32)).array
    array([ 1.5, -1.5], dtype=float32)
    """
    return Fmod().apply((x, divisor))[0]
