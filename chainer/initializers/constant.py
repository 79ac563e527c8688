"""Constant initializers."""

import numpy

from chainer import backend
from chainer.initializer import Initializer


class Constant(Initializer):
    """Fills the array with a scalar or a broadcastable array.

    Args:
        fill_value: The scalar or array.
        dtype: The dtype of the arrays.
    """

    def __init__(self, fill_value, dtype=None):
        if dtype is None and hasattr(fill_value, 'dtype') and \
                getattr(fill_value, 'ndim', 0) > 0:
            dtype = fill_value.dtype
        self.fill_value = fill_value
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None and array.dtype != self.dtype:
            raise ValueError('Constant: dtype mismatch, the initializer has '
                             '{} but the array is {}'.format(self.dtype,
                                                             array.dtype))
        value = self.fill_value
        if not numpy.isscalar(value):
            value = backend.CpuDevice().send(value) if \
                isinstance(array, numpy.ndarray) else value
        xp = backend.get_array_module(array)
        array[...] = xp.asarray(value)


class Zero(Constant):
    """Fills the array with zeros."""

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    """Fills the array with ones."""

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fills the array with NaN (the mark of an uninitialized parameter)."""

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)


class Identity(Initializer):
    """Fills a square 2-D array with ``scale`` times the identity."""

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None and array.dtype != self.dtype:
            raise ValueError('Identity: dtype mismatch')
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError('Identity: the array must be a square matrix, '
                             'got shape {}'.format(shape))
        xp = backend.get_array_module(array)
        array[...] = xp.identity(shape[0]) * self.scale
