"""Reductions to extremes: ``F.max``, ``F.min``, ``F.argmax``, ``F.argmin``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.math.sum import _normalize_axis


def _kept_shape(shape, axis):
    """The shape of a reduction over ``axis`` with ``keepdims=True``."""
    if axis is None:
        return (1,) * len(shape)
    return tuple(1 if i in axis else s for i, s in enumerate(shape))


class _SelectorBase(FunctionNode):
    """Max/Min: the gradient goes to every element equal to the result."""

    _reduce = None

    def __init__(self, axis=None, keepdims=False):
        if axis is not None and not isinstance(axis, (int, tuple)):
            raise TypeError('None, int or tuple of int are required')
        self.axis = (axis,) if isinstance(axis, int) else axis
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self._axis = _normalize_axis(self.label, self.axis, x.ndim)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return getattr(xp, self._reduce)(x, axis=self._axis,
                                         keepdims=self.keepdims),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        kept = _kept_shape(x.shape, self._axis)
        # Ties all receive the full gradient (as Chainer does).
        cond = x.array == y.array.reshape(kept)
        gy = broadcast_to(reshape(gy, kept), x.shape)
        return gy * cond.astype(gy.dtype),


class Max(_SelectorBase):
    """Maximum of array elements over given axes."""

    _reduce = 'amax'


class Min(_SelectorBase):
    """Minimum of array elements over given axes."""

    _reduce = 'amin'


def max(x, axis=None, keepdims=False):
    """Maximum of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Array to be maximized.
        axis (None, int, or tuple of int): Axis over which a max is
            performed (all axes when None).
        keepdims (bool): Keep the reduced axes as axes of length one.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.max(np.array([[1., 4.], [3., 2.]], np.float32), axis=1).array
    array([4., 3.], dtype=float32)
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x, axis=None, keepdims=False):
    """Minimum of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Array to be minimized.
        axis (None, int, or tuple of int): Axis over which a min is
            performed (all axes when None).
        keepdims (bool): Keep the reduced axes as axes of length one.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.min(np.array([[1., 4.], [3., 2.]], np.float32), axis=1).array
    array([1., 2.], dtype=float32)
    """
    return Min(axis, keepdims).apply((x,))[0]


class _IndexSelectorBase(FunctionNode):
    """ArgMax/ArgMin: int32 indices, not differentiable."""

    _reduce = None

    def __init__(self, axis=None):
        if axis is not None and not isinstance(axis, int):
            raise TypeError('None or int are required')
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        check_float(self, x, 'in_types[0]')
        axis = self.axis
        if axis is not None and not -x.ndim <= axis < x.ndim:
            # Chainer's words: the rank the axis needs
            need = axis if axis >= 0 else -axis - 1
            raise invalid_type(self, 'in_types[0].ndim > {}'.format(need),
                               '{} <= {}'.format(x.ndim, need))
        xp = backend.get_array_module(x)
        return getattr(xp, self._reduce)(x, axis=axis).astype(numpy.int32),

    def backward(self, indexes, grad_outputs):
        return None,


class ArgMax(_IndexSelectorBase):
    """Index of the maximum along an axis."""

    _reduce = 'argmax'


class ArgMin(_IndexSelectorBase):
    """Index of the minimum along an axis."""

    _reduce = 'argmin'


def argmax(x, axis=None):
    """Returns index which holds maximum of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Array to find maximum elements.
        axis (None or int): Axis over which a max is performed (the
            flattened array when None).

    Returns:
        ~chainer.Variable: int32 indices (not differentiable).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.argmax(np.array([[1., 4.], [3., 2.]], np.float32), axis=1).array
    array([1, 0], dtype=int32)
    """
    return ArgMax(axis).apply((x,))[0]


def argmin(x, axis=None):
    """Returns index which holds minimum of array elements over a given axis.

    Args:
        x (~chainer.Variable or array): Array to find minimum elements.
        axis (None or int): Axis over which a min is performed (the
            flattened array when None).

    Returns:
        ~chainer.Variable: int32 indices (not differentiable).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.argmin(np.array([[1., 4.], [3., 2.]], np.float32), axis=1).array
    array([0, 1], dtype=int32)
    """
    return ArgMin(axis).apply((x,))[0]
