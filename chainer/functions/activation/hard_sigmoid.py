"""``F.hard_sigmoid``: clip(0.2 x + 0.5, 0, 1)."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class HardSigmoid(FunctionNode):
    """Hard-sigmoid: a piecewise linear approximation of the sigmoid."""

    is_elementwise = True

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        t = x.dtype.type  # dtype-typed constants: NumPy 1 would upcast 0-d x
        return xp.clip(x * t(0.2) + t(0.5), t(0), t(1)),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        # Slope 0.2 strictly inside (-2.5, 2.5), 0 outside and at the kinks.
        slope = ((x > -2.5) & (x < 2.5)).astype(x.dtype) * x.dtype.type(0.2)
        return grad_outputs[0] * slope,


def hard_sigmoid(x):
    """Element-wise hard-sigmoid function.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        0 & {\\rm if}~ x < -2.5 \\\\
        0.2 x + 0.5 & {\\rm if}~ -2.5 < x < 2.5 \\\\
        1 & {\\rm if}~ 2.5 < x.
        \\end{array} \\right.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.hard_sigmoid(np.array([-3., 0., 1., 3.], np.float32)).array
    array([0. , 0.5, 0.7, 1. ], dtype=float32)
    """
    y, = HardSigmoid().apply((x,))
    return y
