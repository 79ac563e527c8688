"""``F.concat``: joins arrays along an existing axis."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _check_joinable(func, xs, axis, names='x{}', shapes=None, whole=False):
    """Chainer's checks for arrays joined along ``axis`` (None: same
    shapes): at least one, one dtype, one ndim, equal other lengths (of
    ``shapes``, the shapes as joined, when given; with ``whole``, equal
    shapes, in Chainer's text for inputs raised to more dimensions)."""
    if len(xs) == 0:
        raise invalid_type(func, 'in_types.size > 0', '0 <= 0')
    x0 = xs[0]
    if shapes is None:
        shapes = [x.shape for x in xs]
    for i, x in enumerate(xs[1:], 1):
        n0, n = names.format(0), names.format(i)
        if x.dtype != x0.dtype:
            if axis is None:  # stack's text names the later input first
                raise invalid_type(func, '{}.dtype == {}.dtype'.format(n, n0),
                                   '{} != {}'.format(x.dtype, x0.dtype))
            raise invalid_type(func, '{}.dtype == {}.dtype'.format(n0, n),
                               '{} != {}'.format(x0.dtype, x.dtype))
        s0, s = shapes[0], shapes[i]
        if axis is not None and x.ndim != x0.ndim:
            raise invalid_type(func, '{}.ndim == {}.ndim'.format(n0, n),
                               '{} != {}'.format(x0.ndim, x.ndim))
        if axis is None:
            if s != s0:
                raise invalid_type(
                    func, '{}.shape == {}.shape'.format(n, n0),
                    '{} != {}'.format(s, s0))
            continue
        if whole:
            if x.shape != x0.shape:
                raise invalid_type(
                    func, '{}.shape == {}.shape'.format(n0, n),
                    '{} != {}'.format(x0.shape, x.shape))
            continue
        for d in range(len(s0)):
            if d != axis and s[d] != s0[d]:
                raise invalid_type(
                    func, '{}.shape[{}] == {}.shape[{}]'.format(n0, d, n, d),
                    '{} != {}'.format(s0[d], s[d]))


def _split_back(gy, sizes, axis, shapes=None):
    """Splits ``gy`` along ``axis`` into pieces of ``sizes`` (the gradient
    of a join), reshaped to ``shapes`` when given."""
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.split_axis import split_axis
    if len(sizes) == 1:
        gxs = (gy,)
    else:
        indices, total = [], 0
        for s in sizes[:-1]:
            total += s
            indices.append(total)
        gxs = split_axis(gy, indices, axis, force_tuple=True)
    if shapes is not None:
        gxs = tuple(reshape(g, s) for g, s in zip(gxs, shapes))
    return gxs


class _Join(FunctionNode):
    """hstack, vstack, dstack: inputs raised to ``_ndim`` dimensions (as
    NumPy's ``atleast_*d`` do), then joined along ``_axis``."""

    _ndim = _axis = None
    _names = 'x{}'

    def _promote(self, shape):
        raise NotImplementedError

    def _join_axis(self, ndim):
        return self._axis

    def forward(self, xs):
        shapes = [self._promote(x.shape) if x.ndim < self._ndim else x.shape
                  for x in xs]
        axis = self._join_axis(xs[0].ndim) if xs else 0
        # Chainer compares whole shapes when the inputs are raised.
        whole = self._axis != 0 or self._ndim != 1
        whole = whole and bool(xs) and xs[0].ndim < self._ndim
        _check_joinable(self, xs, axis, self._names, shapes, whole)
        self._shapes = [x.shape for x in xs]
        self._sizes = [s[axis] for s in shapes]
        self._joined = axis
        xs = [x.reshape(s) for x, s in zip(xs, shapes)]
        return backend.get_array_module(*xs).concatenate(xs, axis),

    def backward(self, indexes, grad_outputs):
        gxs = _split_back(grad_outputs[0], self._sizes, self._joined,
                          self._shapes)
        return tuple(gxs[i] for i in indexes)


class Concat(FunctionNode):
    """Concatenates arrays along an axis."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('concat: axis must be int, got {!r}'.format(axis))
        self.axis = axis

    def forward(self, xs):
        ndim = xs[0].ndim if xs else 0
        axis = self.axis
        if xs:
            if not axis < ndim:
                raise invalid_type(self, 'in_types[0].ndim > axis',
                                   '{} <= {}'.format(ndim, axis))
            if not -ndim <= axis:
                raise invalid_type(self, '-in_types[0].ndim <= {}'.format(
                    axis), '{} > {}'.format(-ndim, axis))
            axis %= ndim
        _check_joinable(self, xs, axis, 'in_types[{}]')
        self._axis = axis
        self._sizes = [x.shape[axis] for x in xs]
        return backend.get_array_module(*xs).concatenate(xs, axis=axis),

    def backward(self, indexes, grad_outputs):
        gxs = _split_back(grad_outputs[0], self._sizes, self._axis)
        return tuple(gxs[i] for i in indexes)


def concat(xs, axis=1):
    """Concatenates given variables along an axis.

    Args:
        xs (tuple or list of ~chainer.Variable or arrays): Input variables
            with the same dtype and ndim, and the same lengths on all axes
            but ``axis``.
        axis (int): The axis to join along (negative counts from the end).

    Returns:
        ~chainer.Variable: The concatenated variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.concat((x, x), axis=1).shape
    (2, 6)
    """
    return Concat(axis).apply(tuple(xs))[0]
