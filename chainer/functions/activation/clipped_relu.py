"""``F.clipped_relu`` (min(max(x, 0), z)) and ``F.relu6``."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class ClippedReLU(FunctionNode):
    """Clipped Rectifier Unit: ``min(max(x, 0), z)``."""

    is_elementwise = True

    def __init__(self, z):
        if not z > 0:
            # Chainer asserts this; the type is kept for compatibility.
            raise AssertionError(
                'clipped_relu: z must be positive, got {!r}'.format(z))
        self.cap = z

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        t = x.dtype.type  # dtype-typed bounds: NumPy 1 would upcast 0-d x
        return backend.get_array_module(x).clip(x, t(0), t(self.cap)),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        # Flat outside (0, z); the kinks themselves get 0, as in Chainer.
        return grad_outputs[0] * ((x > 0) & (x < self.cap)),


def clipped_relu(x, z=20.0):
    """Clipped Rectifier Unit function.

    .. math:: \\mathrm{ClippedReLU}(x, z) = \\min(\\max(0, x), z).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        z (float): Clipping value (positive).

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.clipped_relu(np.array([-1., 0.5, 30.], np.float32), z=10.).array
    array([ 0. ,  0.5, 10. ], dtype=float32)
    """
    y, = ClippedReLU(z).apply((x,))
    return y


def relu6(x):
    """Rectifier Unit function clipped at 6: ``min(max(0, x), 6)``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.relu6(np.array([-1., 3., 8.], np.float32)).array
    array([0., 3., 6.], dtype=float32)
    """
    y, = ClippedReLU(6.0).apply((x,))
    return y
