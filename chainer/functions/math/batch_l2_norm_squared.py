"""``F.batch_l2_norm_squared``: squared L2 norm of each sample."""

from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, invalid_type,
                                       names_bad_arguments)


class BatchL2NormSquared(FunctionNode):
    """Squared L2 norm over all but the first axis."""

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        if x.ndim < 2:
            raise invalid_type(self, 'x.ndim >= 2',
                               '{} < 2'.format(x.ndim))
        self.retain_inputs((0,))
        x2 = x.reshape(len(x), -1)
        return (x2 * x2).sum(axis=1),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        gy = broadcast_to(reshape(gy, (len(gy),) + (1,) * (x.ndim - 1)),
                          x.shape)
        return 2 * x * gy,


@names_bad_arguments
def batch_l2_norm_squared(x):
    """L2 norm (a.k.a. Euclidean norm) squared.

    Computes the squared L2 norm of each sample: ``x`` of shape
    ``(N, ...)`` gives ``y`` of shape ``(N,)`` with
    ``y[i] = sum(x[i] ** 2)``.

    Args:
        x (~chainer.Variable or array): Input of at least two dimensions.

    Returns:
        ~chainer.Variable: The squared norms, of shape ``(N,)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.batch_l2_norm_squared(x).array
    array([ 5., 50.], dtype=float32)
    """
    return BatchL2NormSquared().apply((x,))[0]
