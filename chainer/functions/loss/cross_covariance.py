"""``F.cross_covariance``: a penalty on the cross-covariance of two
feature sets."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.loss._util import check_reduce


def _centered(v):
    from chainer.functions.math.sum import sum as _sum
    return v - _sum(v, axis=0, keepdims=True) * (1.0 / max(v.shape[0], 1))


class CrossCovariance(FunctionNode):
    """``cov = (y - mean(y)).T @ (z - mean(z)) / N`` and its half squared
    sum."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = reduce

    def forward(self, inputs):
        y, z = inputs
        check_float(self, y, 'y')
        if y.dtype != z.dtype:
            raise invalid_type(self, 'y.dtype == z.dtype',
                               '{} != {}'.format(y.dtype, z.dtype))
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
            return xp.asarray(flat.dot(flat) * 0.5, y.dtype),
        return cov.astype(y.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.matmul import matmul
        y, z = self.get_retained_inputs()
        gy, = grad_outputs
        yc = _centered(y)
        zc = _centered(z)
        n = 1.0 / max(y.shape[0], 1)
        if self.reduce == 'half_squared_sum':
            gcov = matmul(yc, zc, transa=True) * n * gy
        else:
            gcov = gy
        # Centering is a projection and zc, yc sum to 0 over the batch, so
        # the gradients need no further centering.
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(matmul(zc, gcov, transb=True) * n)
            else:
                ret.append(matmul(yc, gcov) * n)
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
