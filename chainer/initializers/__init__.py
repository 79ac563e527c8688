"""``chainer.initializers``: how parameters are filled at creation.

An initializer is a callable that fills an array in place
(``initializer(array)``); :func:`generate_array` makes a new array with one.
"""

import numpy

import chainer
from chainer import backend
from chainer.initializer import Initializer  # NOQA
from chainer.initializers import constant  # NOQA
from chainer.initializers import normal  # NOQA
from chainer.initializers import orthogonal  # NOQA
from chainer.initializers import sampling  # NOQA
from chainer.initializers import uniform  # NOQA
from chainer.initializers.constant import Constant  # NOQA
from chainer.initializers.constant import Identity  # NOQA
from chainer.initializers.constant import NaN  # NOQA
from chainer.initializers.constant import One  # NOQA
from chainer.initializers.constant import Zero  # NOQA
from chainer.initializers.normal import GlorotNormal  # NOQA
from chainer.initializers.normal import HeNormal  # NOQA
from chainer.initializers.normal import LeCunNormal  # NOQA
from chainer.initializers.normal import Normal  # NOQA
from chainer.initializers.orthogonal import Orthogonal  # NOQA
from chainer.initializers.sampling import DownsamplingConvFilter  # NOQA
from chainer.initializers.sampling import UpsamplingDeconvFilter  # NOQA
from chainer.initializers.uniform import GlorotUniform  # NOQA
from chainer.initializers.uniform import HeUniform  # NOQA
from chainer.initializers.uniform import LeCunUniform  # NOQA
from chainer.initializers.uniform import Uniform  # NOQA


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Makes an array of ``shape`` filled by ``initializer``.

    Args:
        initializer: A callable that fills an array in place.
        shape (int or tuple of ints): The shape.
        xp: ``numpy`` or ``cupy`` (used when ``device`` is None; CuPy means
            the current GPU).
        dtype: The dtype; None takes the initializer's ``dtype``, else
            ``chainer.config.dtype``. It must agree with the initializer's.
        device: The :class:`~chainer.backend.Device` (or spec) to make it on.

    Returns:
        The new array, on the device. Random initializers draw on that
        device (``numpy.random`` on the CPU, ``cupy.random`` on a GPU).

    >>> import numpy as np
    >>> generate_array(Constant(2.), (2,), np)
    array([2., 2.], dtype=float32)
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and \
            numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError(
            'dtype mismatch: {} != {}'.format(dtype, dtype_attr))
    if dtype is None:
        dtype = dtype_attr
    dtype = chainer.get_dtype(dtype)
    if isinstance(shape, (int, numpy.integer)):
        shape = (int(shape),)
    shape = tuple(shape)
    if device is None:
        if xp is numpy:
            device = backend.CpuDevice()
        else:
            from chainer.backends import cuda
            device = cuda.GpuDevice(cuda.cuda.Device())
    else:
        device = backend.get_device(device)
    with backend.using_device(device):
        array = device.xp.empty(shape, dtype=dtype)
        initializer(array)
    return array


def _get_initializer(initializer):
    """None -> LeCunNormal(); a scalar or an array -> Constant; callables
    pass through; anything else is a TypeError."""
    if initializer is None:
        return LeCunNormal()
    if numpy.isscalar(initializer) or isinstance(
            initializer, backend._get_array_types()):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError('invalid type of initializer: {}'.format(
            type(initializer)))
    return initializer
