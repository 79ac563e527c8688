"""Matrix products: ``F.matmul`` (NumPy's matmul semantics, with optional
transposes) and ``F.batch_matmul``."""

import warnings

import numpy

from chainer import backend
from chainer.function_node import _RELEASED, FunctionNode
from chainer.functions.array.reshape import reshape
from chainer.functions.connection.linear import _f32, _thin, _thin_cores
from chainer.functions._errors import (check_float, invalid_type,
                                       names_bad_arguments)


_ndarray = numpy.ndarray


def _t(a, trans):
    return a.swapaxes(-1, -2) if trans and a.ndim >= 2 else a


def _thin_threads(a_shape, b_shape, dtype):
    """For ``a @ b.T`` of matrices of these shapes and dtype: the threads
    the C loops' thin GEMM runs on, or 0 where NumPy computes it.  The
    thin GEMM takes a few float32 rows, where OpenBLAS's transposed product
    is slow (measured on AVX-512: 4.6 against 2.8 us on 32 x 64 by
    64 x 64, 164 against 66 us on 16 x 512 by 512 x 512; from 64 rows on,
    about even)."""
    if _thin is None or dtype != _f32 or not 0 < a_shape[0] <= 48 or \
            not b_shape[0] or b_shape[1] < 16 or a_shape[1] != b_shape[1]:
        return 0
    return _thin_cores(a_shape[0] * b_shape[0] * b_shape[1])


def _thin_a_bt(a, b, threads):
    (m, k), n = a.shape, len(b)
    y = numpy.empty((m, n), _f32)
    _thin.linear_nt(y, a, b, None, m, n, k, threads)
    return y


def _a_bt(a, b):
    """``a @ b.T`` of two matrices (see :func:`_thin_threads`)."""
    if type(a) is _ndarray and type(b) is _ndarray and a.ndim == 2 and \
            b.ndim == 2 and b.dtype == a.dtype:
        threads = _thin_threads(a.shape, b.shape, a.dtype)
        if threads and a.flags.c_contiguous and b.flags.c_contiguous:
            return _thin_a_bt(a, b, threads)
    return a @ b.T


def _tn_fits(a_shape, b_shape, dtype):
    """For ``a.T @ b`` of matrices of these shapes and dtype: whether the C
    loops' tn GEMM computes it (else NumPy).  It takes a few float32 rows
    and little work, where OpenBLAS runs one thread and its transposed
    product pays NumPy's call (measured on AVX-512: 1.8 against 2.1 us on
    32 x 64 by 32 x 64)."""
    (m, ka), (mb, n) = a_shape, b_shape
    return (_thin is not None and dtype == _f32 and 0 < m <= 48 and
            m == mb and n >= 16 and ka and m * ka * n <= 1 << 18)


def _at_b(a, b):
    """``a.T @ b`` of two matrices (see :func:`_tn_fits`)."""
    if type(a) is _ndarray and type(b) is _ndarray and a.ndim == 2 and \
            b.ndim == 2 and b.dtype == a.dtype and \
            _tn_fits(a.shape, b.shape, a.dtype):
        (m, ka), n = a.shape, b.shape[1]
        out = numpy.empty((ka, n), _f32)
        if _thin.gemm_tn(out, a, b, m, ka, n, True):  # (False: strided)
            return out
    return a.T @ b


def _product(a, b, ta, tb):
    """``op(a) @ op(b)`` of two matrices, op a transpose where asked."""
    if tb and not ta:
        return _a_bt(a, b)
    if ta and not tb:
        return _at_b(a, b)
    return (a.T if ta else a) @ (b.T if tb else b)


def _grads(a, b, gy, ta, tb, indexes):
    """The gradients of ``op(a) @ op(b)`` (matrices) for ``indexes``: the
    products the matmul nodes of backward compute, in the same operand
    order and layout (so the same bits)."""
    ret = []
    if 0 in indexes:
        ret.append(_product(b, gy, tb, True) if ta else
                   _product(gy, b, False, not tb))
    if 1 in indexes:
        ret.append(_product(gy, a, True, ta) if tb else
                   _product(a, gy, not ta, False))
    return ret


class MatMul(FunctionNode):
    """Matrix multiplication of two arrays (batched over leading axes)."""

    transa = transb = transc = False
    dtype = None

    def __init__(self, transa=False, transb=False, transc=False, dtype=None):
        # (the defaults are class attributes: a plain product sets nothing)
        if transa:
            self.transa = transa
        if transb:
            self.transb = transb
        if transc:
            self.transc = transc
        if dtype is not None:
            self.dtype = dtype

    @property
    def label(self):
        return 'MatMul'

    _input_indexes_to_retain = (0, 1)  # retain_inputs((0, 1)), set once

    def forward(self, inputs):
        a, b = inputs
        # The common case first: floats of one dtype.  (What NumPy refuses
        # gets Chainer's error message below.)
        dtype = a.dtype
        if dtype.kind == 'f' and dtype == b.dtype and not self.transc and \
                self.dtype is None:
            if self.transb and not self.transa and a.ndim == 2 == b.ndim:
                if a.shape[1] == b.shape[1]:
                    return _a_bt(a, b),
            elif self.transa and not self.transb and a.ndim == 2 == b.ndim:
                if a.shape[0] == b.shape[0]:
                    return _at_b(a, b),
            else:
                if self.transa:
                    a = _t(a, True)
                if self.transb:
                    b = _t(b, True)
                try:
                    return a @ b,
                except ValueError:
                    a, b = inputs
        check_float(self, a, 'a')
        check_float(self, b, 'b')
        if a.ndim == 0 or b.ndim == 0:
            raise invalid_type(self, 'a.ndim >= 1 and b.ndim >= 1',
                               'a.ndim = {}, b.ndim = {}'.format(a.ndim,
                                                                  b.ndim))
        a = _t(a, self.transa)
        b = _t(b, self.transb)
        kb = b.shape[-2] if b.ndim >= 2 else b.shape[-1]
        if a.shape[-1] != kb:
            raise invalid_type(
                self, 'a.shape[-1] == b.shape[{}]'.format(
                    -2 if b.ndim >= 2 else -1),
                '{} != {}'.format(a.shape[-1], kb))
        xp = backend.get_array_module(a)
        try:
            y = xp.matmul(a, b)
        except ValueError:
            # Chainer's bare broadcast message, named by the expressions
            from chainer.utils.type_check import InvalidType
            raise InvalidType(
                '', '', 'cannot broadcast inputs of the following shapes:'
                '\na.shape[:-2] = {}\nb.shape[:-2] = {}'.format(
                    a.shape[:-2], b.shape[:-2])) from None
        if self.dtype is not None and y.dtype != self.dtype:
            y = y.astype(self.dtype)
        if self.transc and y.ndim >= 2:
            y = y.swapaxes(-1, -2)
        return y,

    def _backward_arrays(self, indexes, gys):
        # No graph to record (no double backprop): the products of the
        # matmul nodes of backward without the nodes.
        data = self._retained_in_data
        if data is _RELEASED or self.transc:
            return None
        a, b = data
        gy = gys[0]
        if a.ndim != 2 or b.ndim != 2 or not a.dtype == b.dtype == gy.dtype:
            return None
        return _grads(a, b, gy, self.transa, self.transb, indexes)

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        a, b = self.get_retained_inputs()
        if self.transc and gy.ndim >= 2:
            from chainer.functions.array.transpose import transpose
            gy = _swap(gy, transpose)
        ta, tb = self.transa, self.transb
        a_shape, b_shape = a.shape, b.shape
        if a.ndim == 1 and b.ndim == 1:
            # an inner product: elementwise, so mixed dtypes (float16 by
            # float32, as Chainer accepts) meet in gy's dtype first
            from chainer.functions.array.cast import cast
            if a.dtype != gy.dtype:
                a = cast(a, gy.dtype)
            if b.dtype != gy.dtype:
                b = cast(b, gy.dtype)
            ret = []
            if 0 in indexes:
                ret.append(gy * b)
            if 1 in indexes:
                ret.append(gy * a)
            return tuple(ret)
        # Promote 1-D operands to matrices (as matmul does), then undo it.
        if a.ndim == 1:
            a = reshape(a, (1,) + a_shape)
            gy = reshape(gy, gy.shape[:-1] + (1,) + gy.shape[-1:])
            ta = False
        if b.ndim == 1:
            b = reshape(b, b_shape + (1,))
            gy = reshape(gy, gy.shape + (1,))
            tb = False
        ret = []
        if 0 in indexes:
            if ta:
                ga = matmul(b, gy, transa=tb, transb=True)
            else:
                ga = matmul(gy, b, transb=not tb)
            if len(a_shape) == 1:
                ga = reshape(ga, ga.shape[:-2] + ga.shape[-1:])
            ret.append(ga)
        if 1 in indexes:
            if tb:
                gb = matmul(gy, a, transa=True, transb=ta)
            else:
                gb = matmul(a, gy, transa=not ta)
            if len(b_shape) == 1:
                gb = reshape(gb, gb.shape[:-1])
            ret.append(gb)
        return tuple(ret)


def _swap(v, transpose):
    axes = list(range(v.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return transpose(v, axes)


def matmul(a, b, transa=False, transb=False):
    """Computes the matrix multiplication of two arrays.

    Follows ``numpy.matmul``: 1-D operands are vectors, and leading axes of
    N-D operands are batch axes (broadcast).

    Args:
        a (~chainer.Variable or array): The left operand.
        b (~chainer.Variable or array): The right operand.
        transa (bool): Transpose the last two axes of ``a`` first.
        transb (bool): Transpose the last two axes of ``b`` first.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.ones((2, 3), np.float32)
    >>> b = np.ones((3, 4), np.float32)
    >>> F.matmul(a, b).shape
    (2, 4)
    """
    return MatMul(transa=transa, transb=transb).apply((a, b))[0]


class BatchMatMul(MatMul):
    """:class:`MatMul` under Chainer's name for ``F.batch_matmul``
    (exporters look nodes up by class name)."""

    @property
    def label(self):
        return 'BatchMatMul'


@names_bad_arguments
def batch_matmul(a, b, transa=False, transb=False):
    """Batch matrix multiplications of two sets of arrays (deprecated; use
    :func:`matmul`).

    Inputs of shape ``(batch, n)`` are taken as ``(batch, n, 1)``.
    """
    warnings.warn('batch_matmul is deprecated. Use matmul instead.',
                  DeprecationWarning)
    from chainer.functions.array.reshape import reshape
    a2, b2 = a.ndim == 2, b.ndim == 2
    if a2:
        a = reshape(a, a.shape + (1,))
    if b2:
        b = reshape(b, b.shape + (1,))
    if a.ndim == b.ndim == 3 and a.dtype == b.dtype and a.dtype.kind == 'f':
        # Chainer's text (from its own BatchMatMul); an axis a 2-D input
        # gained is the constant 1 there.
        ia, ib = (1 if transa else 2), (2 if transb else 1)
        ka, kb = a.shape[ia], b.shape[ib]
        if ka != kb:
            sa, sb = 'a.shape[{}]'.format(ia), 'b.shape[{}]'.format(ib)
            if a2 and ia == 2:
                expect, actual = sb + ' == 1', '{} != 1'.format(kb)
            elif b2 and ib == 2:
                expect, actual = sa + ' == 1', '{} != 1'.format(ka)
            else:
                expect = '{} == {}'.format(sa, sb)
                actual = '{} != {}'.format(ka, kb)
            raise invalid_type('BatchMatMul', expect, actual)
    return BatchMatMul(transa=transa, transb=transb).apply((a, b))[0]
