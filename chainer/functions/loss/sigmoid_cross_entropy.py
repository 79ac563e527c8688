"""``F.sigmoid_cross_entropy``: binary cross entropy of logits."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import (check_label_range, check_int_labels, check_reduce,
                                          sigmoid)


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
        check_label_range(self, t, 2, self.ignore_label)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        self._valid = valid = t != self.ignore_label
        self._t = t
        # Chainer's arithmetic, so the values match it bit for bit: with
        # integer labels NumPy promotes to float64, and the result is cast
        # back once.  log1p(exp(-|x|)) keeps it finite for any |x|.
        loss = -(x * (t - (x >= 0)) - xp.log1p(xp.exp(-abs(x)))) * valid
        if self.reduce == 'mean':
            count = valid.sum() if self.normalize else x.shape[0] if \
                x.ndim else 1
            self._count = xp.maximum(count, 1)
            loss = loss.sum() / self._count
        else:
            self._count = 1
        return xp.asarray(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return _SigmoidCrossEntropyGrad(self).apply((x, gy))[0], None


class _SigmoidCrossEntropyGrad(FunctionNode):
    """``gy * (sigmoid(x) - t) * valid / count``, computed like Chainer (in
    the promoted dtype, cast once); differentiable in ``x`` and ``gy``."""

    def __init__(self, func):
        self.func = func

    @property
    def label(self):
        return 'SigmoidCrossEntropyGrad'

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        f = self.func
        xp = backend.get_array_module(x)
        y = xp.tanh(x * x.dtype.type(0.5)) * x.dtype.type(0.5) + \
            x.dtype.type(0.5)
        if f.reduce == 'mean':
            gx = gy * (y - f._t) * f._valid / f._count
        else:
            gx = gy * (y - f._t) * f._valid
        return xp.asarray(gx, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        f = self.func
        mask = (f._valid / f._count).astype(x.dtype)
        gy_b = gy * mask
        y = sigmoid(x)
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy_b * y * (1 - y))
        if 1 in indexes:
            from chainer.functions.math.sum import sum as _sum
            g = ggx * (y - f._t.astype(x.dtype)) * mask
            ret.append(_sum(g) if f.reduce == 'mean' else g)
        return ret


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
