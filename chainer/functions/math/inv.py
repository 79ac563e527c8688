"""Matrix inverses: ``F.inv`` and ``F.batch_inv`` (through ``xp.linalg``)."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_float,
                                       invalid_type)


def _linalg_dtype(x):
    # xp.linalg has no float16 routines: compute in float32, cast back.
    return numpy.float32 if x.dtype == numpy.float16 else x.dtype


def _inv(x):
    xp = backend.get_array_module(x)
    try:
        y = xp.linalg.inv(x.astype(_linalg_dtype(x), copy=False))
    except numpy.linalg.LinAlgError:
        raise ValueError('Input has singular matrices.') from None
    if xp is not numpy and not bool(xp.isfinite(y).all()):
        raise ValueError('Input has singular matrices.')
    return y.astype(x.dtype, copy=False)


def _check_square(func, a, ndim, name='a', square=None):
    """Chainer's checks of a float ``ndim``-d square ``a`` in the words of
    each function: the name of the input and the form ``square`` of the
    squareness check (``'rows'``: shape[0] == shape[1]; ``'last'``:
    shape[-1] == shape[-2]; ``None``: NumPy's LinAlgError)."""
    check_float(func, a, name)
    if a.ndim != ndim:
        raise invalid_type(func, '{}.ndim == {}'.format(name, ndim),
                           '{} != {}'.format(a.ndim, ndim))
    if a.shape[-1] != a.shape[-2]:
        if square == 'rows':
            raise invalid_type(func, '{}.shape[0] == {}.shape[1]'.format(
                name, name), '{} != {}'.format(a.shape[-2], a.shape[-1]))
        if square == 'last':
            raise invalid_type(func, '{}.shape[-1] == {}.shape[-2]'.format(
                name, name), '{} != {}'.format(a.shape[-1], a.shape[-2]))
        raise chainer_text(numpy.linalg.LinAlgError(
            'Last 2 dimensions of the array must be square'))


class _InvBase(FunctionNode):

    _ndim = None
    _square = None

    def forward(self, inputs):
        a, = inputs
        _check_square(self, a, self._ndim, square=self._square)
        self.retain_outputs((0,))
        return _inv(a),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.matmul import matmul
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        # d(A^-1) = -A^-1 dA A^-1, so gA = -A^-T gY A^-T.
        return -matmul(matmul(y, gy, transa=True), y, transb=True),


class Inv(_InvBase):
    """Inverse of a square matrix."""

    _ndim = 2
    _square = 'rows'


class BatchInv(_InvBase):
    """Inverses of a batch of square matrices."""

    _ndim = 3
    _square = 'last'


def inv(a):
    """Computes the inverse of square matrix.

    Args:
        a (~chainer.Variable or array): A square matrix of shape ``(n, n)``.

    Returns:
        ~chainer.Variable: The inverse, of shape ``(n, n)``.

    Raises:
        ValueError: If ``a`` is singular.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.inv(np.array([[2., 0.], [0., 4.]], np.float32)).array
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    return Inv().apply((a,))[0]


def batch_inv(a):
    """Computes the inverse of a batch of square matrices.

    Args:
        a (~chainer.Variable or array): Matrices of shape ``(m, n, n)``.

    Returns:
        ~chainer.Variable: The inverses, of shape ``(m, n, n)``.

    Raises:
        ValueError: If a matrix of ``a`` is singular.
    """
    return BatchInv().apply((a,))[0]
