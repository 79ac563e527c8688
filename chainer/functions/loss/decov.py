"""``F.decov``: the DeCov penalty on the covariance of hidden units."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import check_reduce


class DeCov(FunctionNode):
    """Off-diagonal covariance of the columns of ``h``, and its half
    squared sum."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = reduce

    def forward(self, inputs):
        h, = inputs
        check_float(self, h, 'h')
        if h.ndim != 2:
            raise invalid_type(self, 'h.ndim == 2', '{} != 2'.format(h.ndim))
        self.retain_inputs((0,))
        xp = backend.get_array_module(h)
        hc = h - h.mean(axis=0, keepdims=True) if h.size else h
        cov = hc.T.dot(hc) / h.dtype.type(max(h.shape[0], 1))
        self._off = off = 1 - xp.eye(h.shape[1], dtype=h.dtype)
        cov *= off
        if self.reduce == 'half_squared_sum':
            return xp.asarray((cov * cov).sum() * 0.5, h.dtype),
        return cov,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.transpose import transpose
        from chainer.functions.loss.cross_covariance import _centered
        from chainer.functions.math.matmul import matmul
        h, = self.get_retained_inputs()
        gy, = grad_outputs
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.variable import Variable
        hc = _centered(h)

        def div_n(v):
            # a true division by N, as Chainer's array code (a Variable
            # divided by a number is a product with its reciprocal)
            n = Variable(h.xp.asarray(len(h), dtype=v.dtype))
            return v / broadcast_to(n, v.shape)

        # Chainer's order of operations (its rounding)
        gy_n = div_n(gy)
        if self.reduce == 'half_squared_sum':
            cov = div_n(matmul(hc, hc, transa=True) * self._off)
            gh = 2.0 * matmul(hc, cov)
            return gh * broadcast_to(gy_n, gh.shape),
        g = gy_n * self._off
        return matmul(hc, g + transpose(g)),


def decov(h, reduce='half_squared_sum'):
    """Computes the DeCov loss of ``h``.

    With ``C = (h - mean(h)).T @ (h - mean(h)) / N`` (means over the
    batch), the loss is ``(sum(C ** 2) - sum(diag(C) ** 2)) / 2``: it
    penalizes the covariance between different hidden units.

    Args:
        h (~chainer.Variable or array): Activations, ``(N, M)``.
        reduce (str): ``'half_squared_sum'`` (a scalar) or ``'no'`` (the
            ``(M, M)`` covariance matrix with its diagonal zeroed).

    Returns:
        ~chainer.Variable: The loss, of ``h``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> h = np.array([[1., 1.], [-1., -1.]], np.float32)
    >>> F.decov(h).array
    array(1., dtype=float32)
    """
    check_reduce('decov', reduce, ('half_squared_sum', 'no'))
    return DeCov(reduce).apply((h,))[0]
