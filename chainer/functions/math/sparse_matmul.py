"""``F.sparse_matmul``: a COO sparse matrix times a dense one."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_floats, invalid_type,
                                       names_bad_arguments)
from chainer.utils import sparse


def _swap(x):
    return x.swapaxes(-1, -2)


class CooMatMul(FunctionNode):
    """``op(S) @ op(D)`` (transposed if ``transc``) for a COO matrix ``S``
    given by ``(row, col, shape)`` and its values (input 0), and a dense
    ``D`` (input 1).  Batched when the values are 2-D.  The product is
    computed in ``dtype``, by default the type both inputs promote to.
    ``sp_order`` (Chainer's hint of how the entries are sorted) is kept but
    not needed."""

    def __init__(self, sp_row, sp_col, sp_shape, sp_order='other',
                 transa=False, transb=False, transc=False, dtype=None):
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = tuple(sp_shape)
        self.sp_order = sp_order
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = None if dtype is None else numpy.dtype(dtype)

    def _coords(self, xp):
        """Rows, columns and shape of ``op(S)``; padding (-1) kept."""
        row, col = xp.asarray(self.sp_row), xp.asarray(self.sp_col)
        if self.transa:
            return col, row, self.sp_shape[::-1]
        return row, col, self.sp_shape

    def forward(self, inputs):
        data, dn = inputs
        check_floats(self, inputs, ('sp', 'dn'))
        if data.ndim != dn.ndim - 1:
            raise invalid_type(self, 'sp.ndim == dn.ndim - 1',
                               '{} != {}'.format(data.ndim, dn.ndim - 1))
        xp = backend.get_array_module(data, dn)
        dtype = self.dtype or numpy.result_type(data.dtype, dn.dtype)
        data, dn = data.astype(dtype, copy=False), dn.astype(dtype, copy=False)
        row, col, (m, k) = self._coords(xp)
        d = _swap(dn) if self.transb else dn
        if d.shape[-2] != k:
            raise invalid_type(self, 'dn.shape[-2] == {}'.format(k),
                               '{} != {}'.format(d.shape[-2], k))
        if data.ndim == 2 and d.shape[0] != data.shape[0]:
            raise invalid_type(self, 'sp.shape[0] == dn.shape[0]',
                               '{} != {}'.format(data.shape[0], d.shape[0]))
        self.retain_inputs((0, 1))
        valid = row >= 0
        y = xp.zeros(d.shape[:-2] + (m, d.shape[-1]), dn.dtype)
        if data.ndim == 1:
            r, c = row[valid], col[valid]
            sparse._scatter_add(y, r, data[valid][:, None] * d[c])
        else:
            b = xp.broadcast_to(xp.arange(len(data))[:, None], data.shape)
            b, r, c = b[valid], row[valid], col[valid]
            sparse._scatter_add(y, (b, r), data[valid][:, None] * d[b, c])
        return (_swap(y) if self.transc else y),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.cast import cast
        from chainer.functions.array.get_item import get_item
        from chainer.functions.array.transpose import transpose
        from chainer.functions.math.sum import sum as _sum
        data, dn = self.get_retained_inputs()
        gy, = grad_outputs
        swap = tuple(range(gy.ndim - 2)) + (gy.ndim - 1, gy.ndim - 2)
        if self.transc:
            gy = transpose(gy, swap)
        ret = []
        if 0 in indexes:
            # g_data[e] = sum_j gy[row_e, j] * op(D)[col_e, j]
            xp = backend.get_array_module(data)
            row, col, _ = self._coords(xp)
            valid = row >= 0
            r = xp.where(valid, row, 0)
            c = xp.where(valid, col, 0)
            d = transpose(dn, swap) if self.transb else dn
            if d.dtype != gy.dtype:
                d = cast(d, gy.dtype)
            if data.ndim == 1:
                idx_r, idx_c = r, c
            else:
                b = xp.broadcast_to(xp.arange(len(r))[:, None], r.shape)
                idx_r, idx_c = (b, r), (b, c)
            g = _sum(get_item(gy, idx_r) * get_item(d, idx_c), axis=-1)
            ret.append(g * valid.astype(g.dtype))
        if 1 in indexes:
            # g_op(D) = op(S)^T @ gy
            ret.append(CooMatMul(self.sp_row, self.sp_col, self.sp_shape,
                                 self.sp_order, not self.transa, False,
                                 self.transb).apply((data, gy))[0])
        return tuple(ret)


@names_bad_arguments
def sparse_matmul(a, b, transa=False, transb=False):
    """Computes the batched multiplication of sparse and dense matrix.

    One of ``a`` and ``b`` is a :class:`chainer.utils.CooMatrix` and the
    other a dense matrix; the result ``op(a) @ op(b)`` is dense.  A sparse
    matrix with 2-D values (a batch, see :func:`chainer.utils.to_coo`) goes
    with a dense 3-D array.

    Args:
        a (~chainer.Variable, array or CooMatrix): The left operand.
        b (~chainer.Variable, array or CooMatrix): The right operand.
        transa (bool): Transpose ``a`` (its last two axes) first.
        transb (bool): Transpose ``b`` (its last two axes) first.

    Returns:
        ~chainer.Variable: The dense product.  The gradient reaches the
        sparse matrix's ``data`` and the dense operand.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> from chainer.utils import to_coo
    >>> a = to_coo(np.array([[0., 2.], [1., 0.]], np.float32))
    >>> F.sparse_matmul(a, np.ones((2, 3), np.float32)).array
    array([[2., 2., 2.],
           [1., 1., 1.]], dtype=float32)
    """
    a_sp = isinstance(a, sparse.CooMatrix)
    b_sp = isinstance(b, sparse.CooMatrix)
    if a_sp and not b_sp:
        return CooMatMul(a.row, a.col, a.shape, a.order, transa, transb,
                         False).apply((a.data, b))[0]
    if b_sp and not a_sp:
        # a @ b == (b^T @ a^T)^T
        return CooMatMul(b.row, b.col, b.shape, b.order, not transb,
                         not transa, True).apply((b.data, a))[0]
    raise ValueError(
        'This combination of type of inputs is not supported.\n'
        '    a: {}\n    b: {}\n'.format(type(a), type(b)))

