"""``chainer.initializers``: how parameters are filled at creation."""

import numpy

import chainer
from chainer import backend
from chainer.initializer import Initializer  # NOQA
from chainer.initializers.constant import Constant, Identity, NaN, One, Zero  # NOQA


def _get_initializer(initializer):
    if initializer is None:
        from chainer.initializers.normal import LeCunNormal
        return LeCunNormal()
    if numpy.isscalar(initializer):
        return Constant(initializer)
    if isinstance(initializer, numpy.ndarray) or \
            backend.is_gpu_array(initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError('invalid type of initializer: {}'.format(
            type(initializer)))
    return initializer


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Makes an array of ``shape`` filled by ``initializer``.

    The dtype is ``dtype``, else the initializer's, else ``config.dtype``.
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and \
            numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError(
            'dtype mismatch: {} != {}'.format(dtype, dtype_attr))
    if dtype is None:
        dtype = dtype_attr
    dtype = chainer.get_dtype(dtype)
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    if device is None:
        device = backend.get_device(xp) if xp is numpy else None
        if device is None:
            from chainer.backends import cuda
            device = cuda.GpuDevice(cuda.cuda.Device())
    array = numpy.empty(shape, dtype=dtype)
    initializer(array)
    return device.send(array)
