"""``F.simplified_dropconnect``: a linear layer whose weights are dropped
at random, per example (Wan et al., 2013, simplified)."""

import numpy

from chainer import backend
from chainer import variable
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, check_floats


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
            if b.dtype != x.dtype:
                raise invalid_type(self, 'b.dtype == x.dtype',
                                   '{} != {}'.format(b.dtype, x.dtype))
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
        w = W * self.mask
        if self.use_batchwise_mask:
            y = xp.matmul(w, x2[:, :, None])[:, :, 0]
        else:
            y = x2.dot(w.T)
        if self.scale != 1:
            y = y * self.scale
        if b is not None:
            y = y + b
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.matmul import matmul
        from chainer.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        if self.scale != 1:
            gy = gy * self.scale
        n = x.shape[0]
        mask = self.mask
        ret = []
        if 0 in indexes:
            if self.use_batchwise_mask:
                gx = reshape(matmul(reshape(gy, (n, 1, W.shape[0])), W * mask),
                             x.shape)
            else:
                gx = reshape(matmul(gy, W * mask), x.shape)
            ret.append(gx)
        if 1 in indexes:
            x2 = reshape(x, (n, W.shape[1]))
            if self.use_batchwise_mask:
                gw = _sum(reshape(gy, gy.shape + (1,)) *
                          reshape(x2, (n, 1, W.shape[1])) * mask, axis=0)
            else:
                gw = matmul(gy, x2, transa=True) * mask
            ret.append(gw)
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
            # all ones, in the shape training uses (as Chainer keeps it)
            shape = ((x.shape[0],) if use_batchwise_mask else ()) + W.shape
            mask = backend.get_array_module(W).ones(shape, W.dtype)
        func = SimplifiedDropconnect(ratio, mask, use_batchwise_mask, 1.)
    inputs = (x, W) if b is None else (x, W, b)
    y, = func.apply(inputs)
    return y
