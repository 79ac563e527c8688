"""``F.scale``: multiplies ``x`` by ``y`` broadcast from a given axis."""

from chainer.functions.math.bias import _expand_from_axis
from chainer.functions._errors import names_bad_arguments


@names_bad_arguments
def scale(x, y, axis=1):
    """Elementwise product with broadcasting.

    Computes an elementwise product of two input variables, with the shape
    of the latter variable broadcasted to match the shape of the former.
    ``axis`` is the first axis of the first variable along which the second
    variable is applied.

    Args:
        x (~chainer.Variable or array): Input variable to be scaled.
        y (~chainer.Variable or array): Input variable to scale, broadcasted.
        axis (int): The first axis of ``x`` along which ``y`` is applied.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((2, 3, 4), np.float32)
    >>> y = np.arange(3, dtype=np.float32)
    >>> F.scale(x, y, axis=1)[0, :, 0].array
    array([0., 1., 2.], dtype=float32)
    """
    return x * _expand_from_axis('scale', x, y, axis)
