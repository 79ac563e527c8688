"""``F.cross_covariance``: a penalty on the cross-covariance of two
feature sets."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_same_dtype, invalid_type)
from chainer.functions.loss._util import check_reduce


def _centered(v):
    # F.mean, as Chainer's gradient takes it (its rounding)
    from chainer.functions.array.broadcast import broadcast_to
    from chainer.functions.math.average import average
    if v.shape[0] == 0:
        return v
    return v - broadcast_to(average(v, axis=0, keepdims=True), v.shape)


class CrossCovariance(FunctionNode):
    """``cov = (y - mean(y)).T @ (z - mean(z)) / N`` and its half squared
    sum."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = reduce

    def forward(self, inputs):
        y, z = inputs
        check_float(self, y, 'y')
        check_same_dtype(self, y, z, ('y', 'z'))
        for name, v in (('y', y), ('z', z)):
            if v.ndim != 2:
                raise invalid_type(self, '{}.ndim == 2'.format(name),
                                   '{} != 2'.format(v.ndim))
        if y.shape[0] != z.shape[0]:
            raise invalid_type(self, 'y.shape[0] == z.shape[0]',
                               '{} != {}'.format(y.shape[0], z.shape[0]))
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(y)
        n = max(y.shape[0], 1)
        yc = y - y.mean(axis=0, keepdims=True) if y.size else y
        zc = z - z.mean(axis=0, keepdims=True) if z.size else z
        self._cov = cov = yc.T.dot(zc) / y.dtype.type(n)
        if self.reduce == 'half_squared_sum':
            # a dot product (not an elementwise sum): Chainer's rounding
            flat = cov.ravel()
            return xp.asarray(flat.dot(flat) * 0.5, cov.dtype),
        # (z's dtype promotes, with type_check off)
        return cov.astype(numpy.result_type(y, z), copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.math.matmul import matmul
        y, z = self.get_retained_inputs()
        gy, = grad_outputs
        yc = _centered(y)
        zc = _centered(z)
        # Chainer's order of operations (its rounding): the covariance
        # again, then the products scaled by gy / n. Centering is a
        # projection and zc, yc sum to 0 over the batch, so the gradients
        # need no further centering.
        gy_n = gy / gy.dtype.type(len(y))
        ret = []
        if self.reduce == 'half_squared_sum':
            cov = matmul(yc, zc, transa=True) / len(y)
            for i in indexes:
                g = matmul(zc, cov, transb=True) if i == 0 else \
                    matmul(yc, cov)
                ret.append(g * broadcast_to(gy_n, g.shape))
        else:
            for i in indexes:
                ret.append(matmul(zc, gy_n, transb=True) if i == 0 else
                           matmul(yc, gy_n))
        return tuple(ret)


def cross_covariance(y, z, reduce='half_squared_sum'):
    """Computes the sum-squared cross-covariance penalty between ``y`` and
    ``z``.

    With ``cov = (y - mean(y)).T @ (z - mean(z)) / N`` (means over the
    batch), the loss is ``sum(cov ** 2) / 2``.

    Args:
        y (~chainer.Variable or array): Features, ``(N, M)``.
        z (~chainer.Variable or array): Features, ``(N, K)``, same dtype.
        reduce (str): ``'half_squared_sum'`` (a scalar) or ``'no'`` (the
            ``(M, K)`` covariance matrix).

    Returns:
        ~chainer.Variable: The penalty, of ``y``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> y = np.array([[1.], [-1.]], np.float32)
    >>> F.cross_covariance(y, 2 * y).array
    array(2., dtype=float32)
    """
    check_reduce('cross_covariance', reduce, ('half_squared_sum', 'no'))
    return CrossCovariance(reduce).apply((y, z))[0]
