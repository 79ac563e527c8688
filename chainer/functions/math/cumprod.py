"""``F.cumprod``: cumulative product along an axis."""

from chainer import backend
from chainer.functions.math.cumsum import _reverse_cumsum, _Scan


class Cumprod(_Scan):
    """Cumulative product along an axis (of the flattened array when None)."""

    _scan = 'cumprod'

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        axis = self._axis
        if axis is None:
            axis = 0
            x = reshape(x, (x.size,))
        if x.shape[axis] == 0:
            gx = gy
        elif not (x.array == 0).any():
            # d y_j / d x_i = y_j / x_i for j >= i.
            gx = _reverse_cumsum(gy * y, axis) / x
        else:
            gx = _grad_with_zeros(x, gy, axis)
        if self._axis is None:
            gx = reshape(gx, self._in_shape)
        return gx,


def _grad_with_zeros(x, gy, axis):
    """The exact gradient when ``x`` has zeros (no division): builds
    ``P[..., i, j] = prod_{k <= j, k != i} x_k`` with an ``n x n`` array."""
    from chainer.functions.array.broadcast import broadcast_to
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.transpose import transpose
    from chainer.functions.math.sum import sum as _sum
    ndim = x.ndim
    perm = [a for a in range(ndim) if a != axis] + [axis]
    x = transpose(x, perm)
    gy = transpose(gy, perm)
    n = x.shape[-1]
    lead = x.shape[:-1]
    xp = backend.get_array_module(x)
    eye = xp.eye(n, dtype=x.dtype)
    t = broadcast_to(reshape(x, lead + (1, n)), lead + (n, n))
    p = cumprod(t * (1 - eye) + eye, axis=-1)
    upper = xp.triu(xp.ones((n, n), dtype=x.dtype))
    gx = _sum(p * upper * reshape(gy, lead + (1, n)), axis=-1)
    inv = [perm.index(a) for a in range(ndim)]
    return transpose(gx, inv)


def cumprod(x, axis=None):
    """Cumulative prod of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Elements to calculate the cumulative
            product of.
        axis (int or None): Axis along which the cumulative product is taken
            (over the flattened array when None).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.cumprod(np.array([1., 2., 3.], np.float32)).array
    array([1., 2., 6.], dtype=float32)
    """
    return Cumprod(axis).apply((x,))[0]
