"""``F.dropout``: zeroes elements at random and scales the rest by
1 / (1 - ratio), so that the expectation is unchanged."""

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


def _parse_kwargs(func_name, kwargs, **defaults):
    """Chainer's handling of the ``**kwargs`` of the random functions: the
    removed ``train`` argument is a ValueError, other unknown names a
    TypeError; returns the values of ``defaults``' names in order."""
    if 'train' in kwargs and 'train' not in defaults:
        raise ValueError('train argument is not supported anymore. Use '
                         'chainer.using_config')
    values = [kwargs.pop(name, default) for name, default in
              defaults.items()]
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            func_name, ', '.join(repr(k) for k in sorted(kwargs))))
    return values


class Dropout(FunctionNode):
    """Dropout regularization."""

    def __init__(self, dropout_ratio, mask=None, return_mask=False):
        if not 0.0 <= dropout_ratio < 1.0:
            raise ValueError('dropout_ratio must be in the range [0, 1)')
        self.dropout_ratio = dropout_ratio
        self.mask = mask
        self.return_mask = return_mask  # kept for inspection, as Chainer

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        mask = self.mask
        if mask is None:
            xp = backend.get_array_module(x)
            scale = x.dtype.type(1.0 / (1.0 - self.dropout_ratio))
            if xp is numpy:
                flag = xp.random.rand(*x.shape) >= self.dropout_ratio
            else:  # CuPy draws float32 directly (half the memory of float64)
                flag = xp.random.rand(
                    *x.shape, dtype=numpy.float32) >= self.dropout_ratio
            mask = self.mask = flag * scale
        elif mask.shape != x.shape:
            try:
                numpy.broadcast_shapes(mask.shape, x.shape)
            except ValueError:
                raise ValueError(
                    'dropout: the mask of shape {} does not broadcast to x '
                    'of shape {}'.format(mask.shape, x.shape)) from None
        y = x * mask
        if y.dtype != x.dtype:
            y = y.astype(x.dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


class DropoutGrad(FunctionNode):
    """``gy * mask`` with the mask fixed (its own gradient)."""

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        gy, = inputs
        y = gy * self.mask
        if y.dtype != gy.dtype:
            y = y.astype(gy.dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


def dropout(x, ratio=.5, **kwargs):
    """dropout(x, ratio=.5, *, mask=None, return_mask=False)

    Drops elements of input variable randomly.

    In training mode (``chainer.config.train``, the default), each element
    is zeroed with probability ``ratio`` and the others are scaled by
    ``1 / (1 - ratio)``. In test mode the input is returned as it is. The
    draws come from ``xp.random`` (NumPy's or CuPy's global generator), so
    ``numpy.random.seed`` makes them reproducible.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        ratio (float): Dropout ratio, in ``[0, 1)``.
        mask (:ref:`ndarray` or None): The mask to multiply ``x`` by
            (already scaled), instead of a random one.
        return_mask (bool): Also return the mask (None in test mode).

    Returns:
        ~chainer.Variable or tuple: The output, or ``(output, mask)`` with
        ``return_mask``. The mask has ``x``'s dtype, its values 0 and
        ``1 / (1 - ratio)``.

    >>> import numpy as np
    >>> import chainer
    >>> import chainer.functions as F
    >>> x = np.ones((2, 3), np.float32)
    >>> with chainer.using_config('train', False):
    ...     F.dropout(x).array
    array([[1., 1., 1.],
           [1., 1., 1.]], dtype=float32)
    """
    mask, return_mask = _parse_kwargs('dropout', kwargs, mask=None,
                                      return_mask=False)
    if chainer.config.train:
        func = Dropout(ratio, mask, return_mask)
        y, = func.apply((x,))
        mask = func.mask
    else:
        y = chainer.as_variable(x)
        mask = None
    if return_mask:
        return y, mask
    return y
