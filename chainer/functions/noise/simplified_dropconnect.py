"""``F.simplified_dropconnect``: a linear layer whose weights are dropped
at random, per example (Wan et al., 2013, simplified)."""

import numpy

from chainer import backend
from chainer import variable
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_floats, check_same_dtype, invalid_type)


class SimplifiedDropconnect(FunctionNode):
    """``y = x (W * mask)^T * scale + b`` with a fixed mask."""

    def __init__(self, ratio, mask=None, use_batchwise_mask=True,
                 scale=None):
        self.ratio = ratio
        # a Variable mask gives its array (the mask is no input, as in
        # Chainer)
        self.mask = None if mask is None else variable.as_array(mask)
        self.use_batchwise_mask = use_batchwise_mask
        self.scale = 1. / (1. - ratio) if scale is None else scale

    def _check(self, x, W, b):
        check_floats(self, (x, W, b), ('x', 'W', 'b'))
        if x.ndim < 2:
            raise invalid_type(self, 'x.ndim >= 2',
                               '{} < 2'.format(x.ndim))
        if W.ndim != 2:
            raise invalid_type(self, 'W.ndim == 2',
                               '{} != 2'.format(W.ndim))
        n_in = int(numpy.prod(x.shape[1:]))
        if n_in != W.shape[1]:
            raise invalid_type(self, 'prod(x.shape[1:]) == W.shape[1]',
                               '{} != {}'.format(n_in, W.shape[1]))
        if b is not None:
            check_same_dtype(self, b, x, ('b', 'x'))
            if b.ndim != 1:
                raise invalid_type(self, 'b.ndim == 1',
                                   '{} != 1'.format(b.ndim))
            if b.shape[0] != W.shape[0]:
                raise invalid_type(self, 'b.shape[0] == W.shape[0]',
                                   '{} != {}'.format(b.shape[0], W.shape[0]))
        mask = self.mask
        if mask is not None:
            want = ((x.shape[0],) if self.use_batchwise_mask else ()) + \
                W.shape
            if mask.shape != want:
                raise invalid_type(self, 'mask.shape == {}'.format(want),
                                   '{} != {}'.format(mask.shape, want))

    def forward(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        self._check(x, W, b)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        x2 = x.reshape(x.shape[0], W.shape[1])
        if self.mask is None:
            shape = ((x.shape[0],) if self.use_batchwise_mask else ()) + \
                W.shape
            self.mask = xp.random.rand(*shape) >= self.ratio
        if self.mask.dtype != x.dtype:
            self.mask = self.mask.astype(x.dtype)
        # Chainer's arithmetic (its last bits): the kept weights scaled
        # before a per-example product summed by einsum
        w = W * W.dtype.type(self.scale) * self.mask
        if w.ndim == 2:
            w = xp.broadcast_to(w, (x.shape[0],) + w.shape)
        y = xp.einsum('noi,ni->no', w, x2)
        if b is not None:
            y = y + b
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.matmul import matmul
        from chainer.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        n = x.shape[0]
        n_out, n_in = W.shape
        mask = self.mask
        if mask.ndim == 2:
            mask = backend.get_array_module(mask).broadcast_to(
                mask, (n,) + mask.shape)
        scale = W.dtype.type(self.scale)
        ret = []
        if 0 in indexes:
            # each example's gy row times its scaled, masked weights
            w = broadcast_to(W * scale, mask.shape) * mask
            gx = matmul(reshape(gy, (n, 1, n_out)), w)
            ret.append(reshape(gx, x.shape))
        if 1 in indexes:
            # the masked outer products summed over the batch, then scaled
            x2 = reshape(x, (n, 1, n_in))
            gw = _sum(matmul(reshape(gy, (n, n_out, 1)), x2) * mask, axis=0)
            ret.append(gw * scale)
        if 2 in indexes:
            ret.append(_sum(grad_outputs[0], axis=0))
        return tuple(ret)


def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """Linear unit regularized by simplified dropconnect.

    In training, each weight is dropped with probability ``ratio`` (a
    different mask for each example with ``use_batchwise_mask``) and the
    kept ones are scaled by ``1 / (1 - ratio)``:

    .. math:: y_n = x_n (W \\ast M_n)^\\top / (1 - p) + b.

    The masks are drawn by ``xp.random`` (NumPy's or CuPy's global
    generator). With ``train=False`` it is a plain linear layer (a given
    ``mask`` is still applied, unscaled).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(N, ...)``, flattened to ``(N, I)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Weight of shape
            ``(O, I)``.
        b (:class:`~chainer.Variable` or :ref:`ndarray` or None): Bias of
            shape ``(O,)``.
        ratio (float): Dropconnect ratio.
        train (bool): Training mode (this function reads its argument,
            not ``chainer.config.train``).
        mask (:ref:`ndarray` or None): The mask to use instead of a random
            one, of shape ``(N, O, I)`` (``(O, I)`` without
            ``use_batchwise_mask``).
        use_batchwise_mask (bool): One mask per example.

    Returns:
        ~chainer.Variable: Output of shape ``(N, O)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((2, 3), np.float32)
    >>> W = np.ones((4, 3), np.float32)
    >>> F.simplified_dropconnect(x, W, train=False).array
    array([[3., 3., 3., 3.],
           [3., 3., 3., 3.]], dtype=float32)
    """
    if not 0 <= ratio < 1:
        raise ValueError('simplified_dropconnect: ratio must be in [0, 1), '
                         'got {}'.format(ratio))
    if train:
        func = SimplifiedDropconnect(ratio, mask, use_batchwise_mask)
    else:
        if mask is None:
            # all ones, in the shape training uses; Chainer draws it at
            # ratio 0, which takes its numbers from the global generator
            shape = ((x.shape[0],) if use_batchwise_mask else ()) + W.shape
            xp = backend.get_array_module(W)
            mask = (xp.random.rand(*shape) >= 0).astype(W.dtype)
        func = SimplifiedDropconnect(ratio, mask, use_batchwise_mask, 1.)
    inputs = (x, W) if b is None else (x, W, b)
    y, = func.apply(inputs)
    return y
