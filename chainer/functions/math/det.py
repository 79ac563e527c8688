"""Determinants: ``F.det`` and ``F.batch_det`` (through ``xp.linalg``)."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.functions.math.inv import _check_square, _linalg_dtype


class BatchDet(FunctionNode):
    """Determinants of a batch of square matrices."""

    @property
    def label(self):
        return 'det'

    def forward(self, inputs):
        a, = inputs
        _check_square(self, a, 3, 'x', 'last')
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        y = xp.linalg.det(a.astype(_linalg_dtype(a), copy=False))
        return y.astype(a.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.array.transpose import transpose
        from chainer.functions.math.inv import batch_inv
        a, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        # d det(A) / dA = det(A) A^-T (Jacobi's formula).
        scale = reshape(gy * y, (len(y), 1, 1))
        return scale * transpose(batch_inv(a), (0, 2, 1)),


def batch_det(a):
    """Computes the determinant of a batch of square matrices.

    Args:
        a (~chainer.Variable or array): Matrices of shape ``(m, n, n)``.

    Returns:
        ~chainer.Variable: The determinants, of shape ``(m,)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.stack([np.eye(2, dtype=np.float32) * k for k in (1, 2)])
    >>> F.batch_det(a).array
    array([1., 4.], dtype=float32)
    """
    return BatchDet().apply((a,))[0]


@names_bad_arguments
def det(a):
    """Computes the determinant of a single square matrix.

    Args:
        a (~chainer.Variable or array): A square matrix of shape ``(n, n)``.

    Returns:
        ~chainer.Variable: The determinant, a 0-d variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.det(np.array([[1., 2.], [3., 4.]], np.float32)).array
    array(-2., dtype=float32)
    """
    from chainer.functions.array.reshape import reshape
    if a.ndim > 2 and a.size != a.shape[0] * a.shape[1]:
        reshape(a, (1,) + a.shape[:2])  # Chainer's error, from its reshape
    if a.ndim != 2:
        raise invalid_type('det', 'a.ndim == 2', '{} != 2'.format(a.ndim))
    return reshape(batch_det(reshape(a, (1,) + a.shape)), ())
