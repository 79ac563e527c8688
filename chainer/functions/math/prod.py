"""``F.prod``: product of array elements over axes."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float
from chainer.functions.math.sum import _normalize_axis


class _Shift(FunctionNode):
    """Shifts along the last axis by one place (``+1``: towards the end),
    filling the freed place with ``fill``.  Its adjoint is the opposite
    shift filled with zeros."""

    def __init__(self, step, fill):
        self.step = step
        self.fill = fill

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = xp.full_like(x, self.fill)
        if self.step > 0:
            y[..., 1:] = x[..., :-1]
        else:
            y[..., :-1] = x[..., 1:]
        return y,

    def backward(self, indexes, grad_outputs):
        return _Shift(-self.step, 0).apply(grad_outputs)


def _others_product(x):
    """``out[..., i] = prod_{k != i} x[..., k]`` without division (zeros
    are fine), built from differentiable ops."""
    from chainer.functions.math.cumprod import cumprod
    from chainer.functions.math.cumsum import _flip
    ax = x.ndim - 1
    left = cumprod(_Shift(1, 1).apply((x,))[0], axis=-1)
    right = _flip(cumprod(_flip(_Shift(-1, 1).apply((x,))[0], ax), axis=-1),
                  ax)
    return left * right


class Prod(FunctionNode):
    """Product of array elements over given axes."""

    keepdims = False

    def __init__(self, axis=None, keepdims=False):
        if axis is not None and not isinstance(axis, (int, tuple)):
            raise TypeError('None, int or tuple of int are required')
        self.axis = (axis,) if isinstance(axis, int) else axis
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self._axis = _normalize_axis('Prod', self.axis, x.ndim)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        return xp.prod(x, axis=self._axis, keepdims=self.keepdims),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        from chainer.functions.array.transpose import transpose
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        shape = x.shape
        ndim = len(shape)
        axis = tuple(range(ndim)) if self._axis is None else self._axis
        kept = tuple(1 if i in axis else s for i, s in enumerate(shape))
        gy = broadcast_to(reshape(gy, kept), shape)
        if x.size == 0 or ndim == 0:
            return gy,
        # Bring the reduced axes to the end, as one axis.
        perm = [a for a in range(ndim) if a not in axis] + list(axis)
        xt = transpose(x, perm)
        lead = xt.shape[:ndim - len(axis)]
        others = reshape(_others_product(reshape(xt, lead + (-1,))),
                         xt.shape)
        inv = [perm.index(a) for a in range(ndim)]
        return gy * transpose(others, inv),


def prod(x, axis=None, keepdims=False):
    """Product of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Elements to calculate the product.
        axis (None, int, or tuple of int): Axis which a product is performed
            (all axes when None).
        keepdims (bool): Keep the reduced axes as axes of length one.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.prod(np.array([[1., 2.], [3., 4.]], np.float32), axis=1).array
    array([ 2., 12.], dtype=float32)
    """
    return Prod(axis, keepdims).apply((x,))[0]
