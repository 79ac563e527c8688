"""``F.prelu``: x for x >= 0, W * x otherwise, W learned per channel."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_same_dtype, invalid_type)


def _check_param(func, x, w, name):
    """Chainer's checks of a per-channel parameter (PReLU's W, Swish's
    beta): same dtype as x, shape x.shape[1:1 + ndim]."""
    check_float(func, x)
    check_same_dtype(func, w, x, (name, 'x'))
    if x.ndim < w.ndim + 1:
        raise invalid_type(func, 'x.ndim >= {}.ndim + 1'.format(name),
                           '{} < {}'.format(x.ndim, w.ndim + 1))
    if x.shape[1:1 + w.ndim] != w.shape:
        raise invalid_type(
            func, '{}.shape == x.shape[1:{}]'.format(name, 1 + w.ndim),
            '{} != {}'.format(w.shape, x.shape[1:1 + w.ndim]))


def _aligned_shape(w_shape, x_ndim):
    """The shape that broadcasts a parameter along x's axes 1, 2, ..."""
    return (1,) + tuple(w_shape) + (1,) * (x_ndim - 1 - len(w_shape))


def _other_axes(w_ndim, x_ndim):
    return (0,) + tuple(range(1 + w_ndim, x_ndim))


class PReLUFunction(FunctionNode):
    """Parametric ReLU."""

    def forward(self, inputs):
        x, W = inputs
        _check_param(self, x, W, 'W')
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        w = W.reshape(_aligned_shape(W.shape, x.ndim))
        # (x's dtype also for another W's, with type_check off)
        return xp.where(x >= 0, x, x * w).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        neg = (x.array < 0).astype(x.dtype)
        ret = []
        if 0 in indexes:
            w = reshape(W, _aligned_shape(W.shape, x.ndim))
            ret.append(gy * (w * neg + (1 - neg)))
        if 1 in indexes:
            ret.append(_sum(gy * x * neg,
                            axis=_other_axes(W.ndim, x.ndim)))
        return tuple(ret)


def prelu(x, W):
    """Parametric ReLU function.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x \\ge 0 \\\\
        W x & {\\rm if}~ x < 0,
        \\end{array} \\right.

    where ``W`` is broadcast along the axes of ``x`` from the second one on:
    its shape must be ``x.shape[1:1 + W.ndim]`` (one slope per channel for
    a vector ``W``; a 0-d ``W`` is a single slope).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): The slopes, of
            ``x``'s dtype.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[-1., 2.], [-3., -4.]], np.float32)
    >>> F.prelu(x, np.array([0.5, 0.1], np.float32)).array
    array([[-0.5,  2. ],
           [-1.5, -0.4]], dtype=float32)
    """
    y, = PReLUFunction().apply((x, W))
    return y
