"""``F.sigmoid_cross_entropy``: binary cross entropy of logits."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import (check_int_labels, check_reduce,
                                          sigmoid, stable_softplus)


class SigmoidCrossEntropy(FunctionNode):
    """Element-wise ``softplus(x) - t * x``, with ignored labels (-1)."""

    ignore_label = -1

    def __init__(self, normalize=True, reduce='mean'):
        self.normalize = normalize
        self.reduce = reduce

    def forward(self, inputs):
        x, t = inputs
        check_float(self, x)
        check_int_labels(self, t)
        if x.shape != t.shape:
            raise invalid_type(self, 'x.shape == t.shape',
                               '{} != {}'.format(x.shape, t.shape))
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        valid = t != self.ignore_label
        self._mask = mask = valid.astype(x.dtype)
        self._t = t.astype(x.dtype)
        # softplus(x) - t x: finite for any |x|.
        loss = (stable_softplus(xp, x) - x * self._t) * mask
        if self.reduce == 'mean':
            count = valid.sum() if self.normalize else x.shape[0] if \
                x.ndim else 1
            self._coeff = 1.0 / xp.maximum(count, 1)
            loss = loss.sum() * self._coeff
        return xp.asarray(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.reduce == 'mean':
            gy = gy * self._coeff.astype(x.dtype)
        return gy * (sigmoid(x) - self._t) * self._mask, None


def sigmoid_cross_entropy(x, t, normalize=True, reduce='mean'):
    """Computes cross entropy loss for pre-sigmoid activations.

    Element-wise ``-(t log sigmoid(x) + (1 - t) log(1 - sigmoid(x)))``,
    computed as ``softplus(x) - t x`` (finite for logits of any size).

    Args:
        x (~chainer.Variable or array): Logits (float).
        t (~chainer.Variable or array): Integer labels of ``x``'s shape:
            1 (positive), 0 (negative) or -1 (ignored).
        normalize (bool): With ``reduce='mean'``, divide the sum by the
            number of labels that are not ignored (True) or by the batch
            size ``x.shape[0]`` (False).
        reduce (str): ``'mean'`` or ``'no'`` (element-wise; ignored
            labels give 0).

    Returns:
        ~chainer.Variable: The loss, of ``x``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[0., 2.]], np.float32)
    >>> t = np.array([[1, -1]], np.int32)
    >>> F.sigmoid_cross_entropy(x, t).array
    array(0.6931472, dtype=float32)
    """
    check_reduce('sigmoid_cross_entropy', reduce)
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
