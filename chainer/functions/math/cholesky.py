"""``F.cholesky``: the Cholesky factor of a symmetric positive definite
matrix (through ``xp.linalg``)."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.math.inv import _check_square, _linalg_dtype


class Cholesky(FunctionNode):
    """Lower triangular ``L`` with ``L @ L.T == a``."""

    @property
    def label(self):
        return 'cholesky'

    def forward(self, inputs):
        a, = inputs
        _check_square(self, a, 2)
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        y = xp.linalg.cholesky(a.astype(_linalg_dtype(a), copy=False))
        return y.astype(a.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.transpose import transpose
        from chainer.functions.math.inv import inv
        from chainer.functions.math.matmul import matmul
        L, = self.get_retained_outputs()
        gL, = grad_outputs
        xp = backend.get_array_module(L)
        n = L.shape[0]
        # Lower triangle with the diagonal halved.
        phi = xp.tril(xp.ones((n, n), L.dtype)) - 0.5 * xp.eye(n, dtype=L.dtype)
        L_inv = inv(L)
        s = matmul(matmul(L_inv, matmul(L, gL, transa=True) * phi,
                          transa=True), L_inv)
        # ``a`` is symmetric: split the gradient evenly between a[i, j] and
        # a[j, i].
        return (s + transpose(s)) * 0.5,


def cholesky(a):
    """Cholesky Decomposition.

    Decomposes a symmetric positive definite matrix ``a`` into ``L @ L.T``
    with ``L`` lower triangular.  The gradient is symmetric (it treats
    ``a[i, j]`` and ``a[j, i]`` as one value).

    Args:
        a (~chainer.Variable or array): A symmetric positive definite matrix
            of shape ``(n, n)``.

    Returns:
        ~chainer.Variable: The lower triangular factor ``L``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.cholesky(np.array([[4., 2.], [2., 2.]], np.float32)).array
    array([[2., 0.],
           [1., 1.]], dtype=float32)
    """
    return Cholesky().apply((a,))[0]
