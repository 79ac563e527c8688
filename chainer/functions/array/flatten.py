"""``F.flatten``."""

from chainer.functions.array.reshape import reshape
from chainer.functions._errors import names_bad_arguments


@names_bad_arguments
def flatten(x):
    """Flatten a given array into one dimension.

    Args:
        x (~chainer.Variable or array): Input variable.

    Returns:
        ~chainer.Variable: A 1-D variable with ``x.size`` elements (made by
        :class:`~chainer.functions.array.reshape.Reshape`).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.flatten(np.zeros((2, 3), np.float32)).shape
    (6,)
    """
    return reshape(x, (x.size,))
