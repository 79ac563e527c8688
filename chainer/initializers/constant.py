"""Constant initializers: Constant, Zero, One, NaN, Identity."""

import numpy

from chainer import backend
from chainer.initializer import Initializer
from chainer.initializers._common import check_dtype


class _Constant(Initializer):
    # Shared by Constant and the fixed-value initializers: ``fill_value`` is
    # an instance attribute of Constant, a class attribute of Zero/One/NaN
    # (Chainer's layout: Zero is not a Constant).
    fill_value = None

    def __call__(self, array):
        check_dtype(self, array, message=False)
        value = self.fill_value
        if numpy.isscalar(value):
            # as an array: NaN into an int array is NumPy's unsafe cast
            # (INT_MIN, with its RuntimeWarning), as Chainer's, not an error
            value = backend.get_array_module(array).asarray(value)
        else:
            value = backend.get_device_from_array(array).send(
                backend.get_array_module(value).asarray(value))
        array[...] = value


class Constant(_Constant):
    """Fills the array with a scalar, or an array broadcast to its shape.

    Args:
        fill_value: A scalar or an array (NumPy or CuPy).
        dtype: The dtype of the arrays it fills (None: any).

    >>> import numpy as np
    >>> a = np.empty((2, 2), np.float32)
    >>> Constant(3.)(a)
    >>> a
    array([[3., 3.],
           [3., 3.]], dtype=float32)
    """

    def __init__(self, fill_value, dtype=None):
        if not (numpy.isscalar(fill_value) or
                backend.get_array_module(fill_value) is not numpy or
                isinstance(fill_value, numpy.ndarray)):
            raise ValueError(
                'fill_value must be either scalar, numpy.ndarray, '
                'cupy.ndarray or chainerx.ndarray.')
        self.fill_value = fill_value
        super().__init__(dtype)


class Zero(_Constant):
    """Fills the array with zeros."""

    fill_value = 0.0


class One(_Constant):
    """Fills the array with ones."""

    fill_value = 1.0


class NaN(_Constant):
    """Fills the array with NaN (the mark of an uninitialized parameter)."""

    fill_value = numpy.nan


class Identity(Initializer):
    """Fills a square matrix with ``scale`` times the identity.

    Args:
        scale (float): The value on the diagonal.
        dtype: The dtype of the arrays it fills.
    """

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        check_dtype(self, array, message=False)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(
                'Identity matrix initialization can only be used for 2D '
                'squared matrices.')
        xp = backend.get_array_module(array)
        array[...] = xp.identity(shape[0]) * self.scale
