"""Array helpers."""

import numpy


def size_of_shape(shape):
    size = 1
    for s in shape:
        size *= s
    return int(size)


def sum_to(x, shape):
    """Sums an array so that it has ``shape`` (the inverse of broadcasting).

    >>> import numpy as np
    >>> sum_to(np.ones((2, 3)), (3,))
    array([2., 2., 2.])
    """
    if x.shape == shape:
        return x
    ndim = len(shape)
    lead = x.ndim - ndim
    lead_axis = tuple(range(lead))
    axis = tuple(i + lead for i, sx in enumerate(shape) if sx == 1)
    y = x.sum(lead_axis + axis, keepdims=True)
    if lead > 0:
        y = y.squeeze(lead_axis)
    if not isinstance(y, numpy.ndarray) and numpy.isscalar(y):
        y = numpy.asarray(y)
    return y


def as_vec(x):
    return x if x.ndim == 1 else x.ravel()


def as_mat(x):
    return x if x.ndim == 2 else x.reshape(len(x), -1)


def empty_like(x):
    from chainer import backend
    xp = backend.get_array_module(x)
    return xp.empty_like(x)
