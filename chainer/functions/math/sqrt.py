"""Square root and its reciprocal."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Sqrt(FunctionNode):

    @property
    def label(self):
        return 'sqrt'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        return backend.get_array_module(x).sqrt(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] / (y * 2),


def sqrt(x):
    """Elementwise square root function.

    Args:
        x (~chainer.Variable or array): Input (float), non-negative.

    Returns:
        ~chainer.Variable: ``sqrt(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.sqrt(np.array([4.], np.float32)).array
    array([2.], dtype=float32)
    """
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Computes elementwise reciprocal of square root of input ``x``.

    It is ``1 / sqrt(x)`` (two ops in the graph, as in Chainer).

    Args:
        x (~chainer.Variable or array): Input (float), positive.

    Returns:
        ~chainer.Variable: ``1 / sqrt(x)``.

    .. seealso:: :func:`~chainer.functions.sqrt`

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.rsqrt(np.array([4.], np.float32)).array
    array([0.5], dtype=float32)
    """
    return 1.0 / sqrt(x)
