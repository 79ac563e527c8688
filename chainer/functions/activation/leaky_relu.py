"""``F.leaky_relu``: x for x > 0, slope * x otherwise."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class LeakyReLU(FunctionNode):
    """Leaky Rectified Linear Unit."""

    is_elementwise = True

    def __init__(self, slope=0.2):
        self.slope = slope

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        # A dtype-typed slope: NumPy 1 would upcast a 0-d x.
        return xp.where(x > 0, x, x * x.dtype.type(self.slope)),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        xp = backend.get_array_module(x)
        coef = xp.where(x > 0, 1, self.slope).astype(x.dtype, copy=False)
        return grad_outputs[0] * coef,


def leaky_relu(x, slope=0.2):
    """Leaky Rectified Linear Unit function.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x > 0 \\\\
        ax & {\\rm if}~ x \\le 0,
        \\end{array} \\right.

    where :math:`a` is ``slope``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        slope (float): Slope value :math:`a`.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.leaky_relu(np.array([-1., 2.], np.float32)).array
    array([-0.2,  2. ], dtype=float32)
    """
    y, = LeakyReLU(slope).apply((x,))
    return y
