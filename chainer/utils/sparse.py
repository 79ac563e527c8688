"""Sparse matrices in coordinate (COO) format, for ``F.sparse_matmul``."""

import numpy

from chainer import backend


class CooMatrix:
    """A sparse matrix (or a batch of them) in COO format.

    Args:
        data (array): The non-zero values, of shape ``(nnz,)`` (or
            ``(batch, ldnz)`` for a batch).  It becomes a
            :class:`~chainer.Variable` (``self.data``), so the values can
            be learned.
        row (array): The row index of each value (``-1`` marks padding).
        col (array): The column index of each value (``-1`` marks padding).
        shape (tuple of int): The shape of one matrix, ``(rows, cols)``.
        order ('C', 'F', 'other' or None): How the entries are sorted
            (row-major, column-major, or neither); None works it out.
        requires_grad (bool): Whether ``self.data`` requires a gradient.
    """

    def __init__(self, data, row, col, shape, order=None,
                 requires_grad=False):
        import chainer
        if not (1 <= data.ndim <= 2):
            raise ValueError('ndim of data must be 1 or 2.')
        if not (data.ndim == row.ndim == col.ndim):
            raise ValueError('ndim of data, row and col must be the same.')
        if len(shape) != 2:
            raise ValueError('length of shape must be 2.')
        if row.shape != col.shape:
            raise ValueError('shape of row and col must be the same.')
        if data.shape != row.shape:
            raise ValueError('shape of data must be the same as that of row '
                             'and col: {} != {}'.format(data.shape,
                                                        row.shape))
        if order not in ('C', 'F', 'other', None):
            raise ValueError("order must be 'C', 'F', 'other' or None.")
        if isinstance(data, chainer.Variable):
            self.data = data
        else:
            self.data = chainer.Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        if order is None:
            order = get_order(row, col)
        self.order = order

    def to_dense(self):
        """The dense array (sums repeated entries; skips padding)."""
        data = self.data.array
        xp = backend.get_array_module(data)
        valid = self.row >= 0
        if data.ndim == 1:
            x = xp.zeros(self.shape, data.dtype)
            idx = (self.row[valid], self.col[valid])
        else:
            x = xp.zeros((data.shape[0],) + self.shape, data.dtype)
            batch = xp.broadcast_to(
                xp.arange(data.shape[0])[:, None], data.shape)
            idx = (batch[valid], self.row[valid], self.col[valid])
        _scatter_add(x, idx, data[valid])
        return x


def _scatter_add(x, idx, values):
    if isinstance(x, numpy.ndarray):
        numpy.add.at(x, idx, values)
    else:
        import cupyx
        cupyx.scatter_add(x, idx, values)


def _is_sorted(major, minor):
    """Whether the (major, minor) pairs are in non-decreasing order."""
    if major.size <= 1:
        return True
    xp = backend.get_array_module(major)
    d_major = xp.diff(major)
    d_minor = xp.diff(minor)
    return bool(((d_major > 0) | ((d_major == 0) & (d_minor >= 0))).all())


def get_order(row, col):
    """How the entries of a COO matrix are sorted.

    Args:
        row (array): Row indices (1-D, or 2-D for a batch).
        col (array): Column indices, of ``row``'s shape.

    Returns:
        str: ``'C'`` when sorted by row then column, ``'F'`` when sorted by
        column then row, ``'other'`` otherwise.  Padding (``-1``) is
        ignored.

    >>> import numpy as np
    >>> from chainer.utils import get_order
    >>> get_order(np.array([0, 0, 1]), np.array([1, 2, 0]))
    'C'
    """
    if row.shape != col.shape:
        raise ValueError('shape of row and col must be the same.')
    if ((row < 0) != (col < 0)).any():  # padding is -1 in both or neither
        raise ValueError('invalid index combination of row and col.')
    rows = row.reshape(1, -1) if row.ndim == 1 else row
    cols = col.reshape(1, -1) if col.ndim == 1 else col
    pairs = []
    for r, c in zip(rows, cols):
        valid = r >= 0
        pairs.append((r[valid], c[valid]))
    if all(_is_sorted(r, c) for r, c in pairs):
        return 'C'
    if all(_is_sorted(c, r) for r, c in pairs):
        return 'F'
    return 'other'


def to_coo(x, ldnz=None, requires_grad=False):
    """Converts a dense matrix (or a batch of them) into a COO matrix.

    Args:
        x (array): A dense array of shape ``(rows, cols)`` or
            ``(batch, rows, cols)``.
        ldnz (int): The number of places per matrix of a batch: shorter
            ones are padded with zeros at index ``-1`` (at least the
            largest number of non-zeros).
        requires_grad (bool): Whether the result's ``data`` requires a
            gradient.

    Returns:
        CooMatrix: The non-zero elements of ``x`` in row-major order.

    >>> import numpy as np
    >>> from chainer.utils import to_coo
    >>> c = to_coo(np.array([[0., 1.], [2., 0.]], np.float32))
    >>> c.data.array, c.row, c.col
    (array([1., 2.], dtype=float32), array([0, 1], dtype=int32), \
array([1, 0], dtype=int32))
    """
    xp = backend.get_array_module(x)
    if x.ndim == 2:
        row, col = xp.nonzero(x)
        data = x[row, col]
        n = data.shape[0]
        if ldnz is not None and ldnz > n:
            pad = ldnz - n
            data = xp.concatenate([data, xp.zeros((pad,), data.dtype)])
            row = xp.concatenate([row, xp.full((pad,), -1, row.dtype)])
            col = xp.concatenate([col, xp.full((pad,), -1, col.dtype)])
        return CooMatrix(data, row.astype(numpy.int32),
                         col.astype(numpy.int32), x.shape, order='C',
                         requires_grad=requires_grad)
    if x.ndim == 3:
        parts = [xp.nonzero(m) for m in x]
        width = max([len(r) for r, _ in parts] + [ldnz or 0])
        data = xp.zeros((len(x), width), x.dtype)
        row = xp.full((len(x), width), -1, numpy.int32)
        col = xp.full((len(x), width), -1, numpy.int32)
        for i, (m, (r, c)) in enumerate(zip(x, parts)):
            n = len(r)
            data[i, :n] = m[r, c]
            row[i, :n] = r
            col[i, :n] = c
        return CooMatrix(data, row, col, x.shape[1:], order='C',
                         requires_grad=requires_grad)
    raise ValueError('ndim of x must be 2 or 3.')

