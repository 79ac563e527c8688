"""``F.elu``: x for x > 0, alpha (exp(x) - 1) otherwise."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class ELU(FunctionNode):
    """Exponential Linear Unit."""

    is_elementwise = True

    def __init__(self, alpha=1.0):
        self.alpha = float(alpha)

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        # expm1 of min(x, 0): large x cannot overflow in the unused branch.
        t = x.dtype.type  # dtype-typed constants: NumPy 1 would upcast 0-d x
        return xp.where(x > 0, x, t(self.alpha) * xp.expm1(xp.minimum(x, t(0)))),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        y, = self.get_retained_outputs()
        # dy/dx = 1 for x > 0, alpha exp(x) = y + alpha otherwise; written
        # on y (a Variable) so that the gradient is differentiable again.
        neg = (x <= 0).astype(x.dtype)
        return grad_outputs[0] * ((y + self.alpha) * neg + (1 - neg)),


def elu(x, alpha=1.0):
    """Exponential Linear Unit function.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x > 0 \\\\
        \\alpha (\\exp(x) - 1) & {\\rm if}~ x \\le 0,
        \\end{array} \\right.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        alpha (float): Parameter :math:`\\alpha`.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.elu(np.array([-1., 2.], np.float32)).array
    array([-0.63212055,  2.        ], dtype=float32)
    """
    y, = ELU(alpha).apply((x,))
    return y
