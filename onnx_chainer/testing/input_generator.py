"""Deterministic test inputs: monotonically increasing arrays."""

import numpy


def increasing(*shape, dtype=numpy.float32):
    """Returns a monotonically increasing array of ``shape``.

    Floats step by 0.5 around zero (so the array holds negative numbers,
    zero and fractions); ints step by 1.

    >>> increasing(3, 4)
    array([[-3. , -2.5, -2. , -1.5],
           [-1. , -0.5,  0. ,  0.5],
           [ 1. ,  1.5,  2. ,  2.5]], dtype=float32)

    Args:
        shape (tuple of int): The shape.
        dtype: The dtype.
    """
    dtype = numpy.dtype(dtype)
    n = int(numpy.prod(shape, dtype=numpy.int64))
    a = numpy.arange(n) - n // 2
    if dtype.kind == 'f':
        a = a * 0.5
    return a.reshape(shape).astype(dtype)


def nonzero_increasing(*shape, dtype=numpy.float32, bias=1e-7):
    """Like :func:`increasing` shifted by ``bias``, so it holds no zero (for
    divisors)."""
    return (increasing(*shape, dtype=numpy.float64) + bias).astype(dtype)


def positive_increasing(*shape, dtype=numpy.float32, bias=1e-7):
    """Like :func:`increasing` but from ``bias`` up, so all positive (for
    log, sqrt, ...)."""
    n = int(numpy.prod(shape, dtype=numpy.int64))
    return (numpy.arange(n) * 0.5 + bias).reshape(shape).astype(dtype)
