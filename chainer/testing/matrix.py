"""Random matrices with given singular values."""

import numpy


def _broadcast_to(array, shape):
    """``broadcast_to`` of the array's own module (NumPy or CuPy)."""
    from chainer import backend
    return backend.get_array_module(array).broadcast_to(array, shape)


def generate_matrix(shape, dtype=float, **kwargs):
    """generate_matrix(shape, dtype=float, *, singular_values)

    Generates a random matrix (or a stack of them) with given singular
    values: useful inputs for tests of numerically delicate functions
    (inverses, determinants, decompositions).

    Args:
        shape (tuple of int): ``(B..., M, N)``.
        dtype: A float or complex dtype.
        singular_values (array-like): Broadcastable to ``(B..., K)`` with
            ``K = min(M, N)``; non-negative.

    Returns:
        numpy.ndarray: The matrix, of ``dtype``.

    >>> from chainer import testing
    >>> a = testing.generate_matrix((2, 2), singular_values=[1, 3])
    >>> numpy.allclose(numpy.linalg.svd(a, compute_uv=False), [3, 1])
    True
    """
    from chainer.utils import argument
    singular_values, = argument.parse_kwargs(
        kwargs, ('singular_values', None))
    if len(shape) <= 1:
        raise ValueError(
            'shape {} is invalid for matrices: too few axes'.format(shape))
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError('dtype {} is not supported'.format(dtype))
    if singular_values is None:
        raise TypeError('singular_values is not given')
    s = numpy.asarray(singular_values)
    if s.dtype.kind == 'c':
        raise TypeError('singular_values is not real')
    if (s < 0).any():
        raise ValueError('negative singular value is given')

    *batch, m, n = shape
    k = min(m, n)
    s = _broadcast_to(s, tuple(batch) + (k,))

    def orthogonal(size):
        a = numpy.random.normal(size=tuple(batch) + (size, size))
        if dtype.kind == 'c':
            a = a + 1j * numpy.random.normal(size=a.shape)
        q, _ = numpy.linalg.qr(a)
        return q

    u = orthogonal(m)[..., :, :k]
    vh = orthogonal(n)[..., :k, :]
    a = numpy.matmul(u * s[..., None, :], vh)
    return a.astype(dtype)
