"""Fully connected layer: ``F.linear`` (``y = x W^T + b``)."""

import os

import numpy

from chainer._backprop import LeafSum
from chainer.function_node import _RELEASED, FunctionNode, _graph_free
from chainer.utils import _blas
from chainer.functions._errors import (check_same_dtype, invalid_type, not_an_array)
from chainer.variable import _new_variable

try:
    from chainer.utils import _loops
except ImportError:  # pragma: no cover - a build without a C compiler
    _loops = None


def _cores():
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    for name in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS'):
        try:  # the cores BLAS was told to use, when it was told
            n = min(n, int(os.environ[name]))
        except (KeyError, ValueError):
            pass
    return max(n, 1)


# The C loops' thin GEMMs (_loops.linear_nt, linear_nn) read W in place
# once, where BLAS packs it first, and share the work with a helper thread
# of their own from _THIN_WORK multiply-adds.  Measured on 2 AVX-512 cores
# against OpenBLAS (Haswell kernels, 2 threads), one process, medians: 20
# rows against a 10,000 x 200 float32 W, forward 1.1 to 1.4 times and the
# input gradient 1.2 to 1.4 times as fast; against 800 x 200 (on one
# thread: a helper there won up to 1.2 times on the median call but could
# make a call wait milliseconds for a core that BLAS's spinning threads
# hold) about even.  Beyond 32 rows BLAS wins.  So they take float32 NumPy
# arrays with at most _THIN_ROWS rows against a W of at least _THIN_SIZE
# items, and only on CPUs with AVX-512 (elsewhere they run, but were not
# measured to win).  None: NumPy only.  A caveat: OpenBLAS's thread spins
# on a core for about 0.1 s after each of its calls, so the helper makes a
# third busy thread on 2 cores; the LSTM benchmark's step went from 124 to
# 117 ms (medians of 21 runs each, alternated), but 2 of those 21 runs
# were 1.6 to 2 times slower throughout (none without the helper):
# _THIN_CORES = 1 runs the thin GEMMs without it.
_thin = _loops if getattr(_loops, 'linear_isa', lambda: '')() == 'avx512' \
    else None
_THIN_ROWS = 32
_THIN_SIZE = 65536
_THIN_WORK = 1 << 24
_THIN_CORES = _cores()
_f32 = numpy.dtype(numpy.float32)


def _thin_ok(a, W):
    """Whether the thin GEMMs take ``a`` (rows) against ``W``."""
    return (_thin is not None and type(a) is numpy.ndarray and
            a.dtype == _f32 and len(a) <= _THIN_ROWS and
            W.size >= _THIN_SIZE and type(W) is numpy.ndarray and
            W.dtype == _f32 and W.shape[1] >= 16 and a.flags.c_contiguous and
            W.flags.c_contiguous)


def _thin_cores(work):
    """The threads a thin GEMM of ``work`` multiply-adds runs on."""
    return _THIN_CORES if work >= _THIN_WORK else 1


def _gy_at_W(gy, W, turn=True):
    """``gy @ W``: by the thin GEMM where it wins, else by NumPy, with the
    larger operand on the left if ``turn`` (an LSTM step's input gradient:
    1.2 to 5 times faster than ``gy @ W``)."""
    if _thin_ok(gy, W):
        (m, n), k = gy.shape, W.shape[1]
        gx = numpy.empty((m, k), _f32)
        _thin.linear_nn(gx, gy, W, m, n, k, _thin_cores(m * W.size))
        return gx
    if turn and len(gy) < W.shape[1] and type(gy) is numpy.ndarray:
        return numpy.ascontiguousarray((W.T @ gy.T).T)
    return gy @ W


def _check(func, x, W, b):
    if x.dtype.kind != 'f':
        raise invalid_type(func, 'x.dtype.kind == f',
                           '{} != f'.format(x.dtype.kind))
    if W.dtype.kind != 'f':
        raise invalid_type(func, 'W.dtype.kind == f',
                           '{} != f'.format(W.dtype.kind))
    if x.ndim != 2:
        raise invalid_type(func, 'x.ndim == 2', '{} != 2'.format(x.ndim))
    if W.ndim != 2:
        raise invalid_type(func, 'W.ndim == 2', '{} != 2'.format(W.ndim))
    if x.shape[1] != W.shape[1]:
        raise invalid_type(func, 'x.shape[1] == W.shape[1]',
                           '{} != {}'.format(x.shape[1], W.shape[1]))
    if b is not None:
        if b.dtype.kind != 'f':
            raise invalid_type(func, 'b.dtype.kind == f',
                               '{} != f'.format(b.dtype.kind))
        # (W may differ; it is cast, as Chainer)
        check_same_dtype(func, b, x, ('b', 'x'))
        if b.ndim != 1:
            raise invalid_type(func, 'b.ndim == 1', '{} != 1'.format(b.ndim))
        if b.shape[0] != W.shape[0]:
            raise invalid_type(func, 'b.shape[0] == W.shape[0]',
                               '{} != {}'.format(b.shape[0], W.shape[0]))


class LinearFunction(FunctionNode):
    """``y = x W^T (+ b)`` on a matrix ``x``."""

    def forward(self, inputs):
        x, W = inputs[0], inputs[1]
        b = inputs[2] if len(inputs) == 3 else None
        dtype = x.dtype
        # The success path is two comparisons; the full check only runs
        # when something is off.
        if x.ndim != 2 or W.ndim != 2 or x.shape[1] != W.shape[1] or \
                dtype.kind != 'f' or W.dtype != dtype or \
                (b is not None and (b.shape != W.shape[:1] or
                                    b.dtype != dtype)):
            _check(self, x, W, b)
            W = W.astype(dtype, copy=False)
            if b is not None:
                b = b.astype(dtype, copy=False)
        self.retain_inputs((0, 1))
        if _thin_ok(x, W) and (b is None or b.flags.c_contiguous):
            (m, k), n = x.shape, len(W)
            y = numpy.empty((m, n), dtype)
            _thin.linear_nt(y, x, W, b, m, n, k, _thin_cores(m * W.size))
            return y,
        if len(x) < len(W) and type(x) is numpy.ndarray:
            # OpenBLAS is faster with the larger operand on the left (1.1
            # to 1.8 times for batches smaller than the output, measured);
            # the transposed product is copied out C-ordered with the bias.
            yt = (W @ x.T).T
            if b is None:
                return numpy.ascontiguousarray(yt),
            y = numpy.empty(yt.shape, dtype)
            numpy.add(yt, b, out=y)
            return y,
        y = x @ W.T  # a transposed GEMM, no copy of W
        if b is not None:
            y += b
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.cast import cast
        from chainer.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = LinearGradData().apply((W, gy))
            ret.append(cast(gx, x.dtype))
        if 1 in indexes:
            gW, = LinearGradWeight().apply((x, gy))
            ret.append(cast(gW, W.dtype))
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return tuple(ret)

    _sums_leaf_grads = True

    def _backward_arrays(self, indexes, gys, sums=None):
        # No graph to record: the products of LinearGradData and
        # LinearGradWeight without their nodes.  A leaf weight's gradient
        # is kept as a sum of products (one GEMM over all of its
        # applications in the pass); a weight made by other ops is left to
        # backward_accumulate, which adds to its gradient in place.
        data = self._retained_in_data
        gy = gys[0]
        if data is _RELEASED or gy is None:
            return None
        x, W = data
        if not x.dtype == W.dtype == gy.dtype or (
                len(self.inputs) == 3 and self.inputs[2].dtype != gy.dtype):
            return None
        w_node = self.inputs[1]
        if 1 in indexes and (sums is None or
                             w_node._creator_node is not None):
            return None
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_gy_at_W(gy, W))
            elif i == 1:
                acc = _WeightGradSum.open(sums, w_node)
                if acc is None:
                    sums[_WeightGradSum, w_node] = acc = _WeightGradSum(
                        W, gy)
                    ret.append(acc)
                else:
                    ret.append(None)  # already in the table, in acc
                acc.add(gy, x)
            else:
                ret.append(gy.sum(axis=0))
        return ret

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        data = self._retained_in_data
        gy = grad_outputs[0]
        if not _graph_free(data) or gy is None or \
                not data[0].dtype == data[1].dtype == gy.dtype or \
                (len(self.inputs) == 3 and self.inputs[2].dtype != gy.dtype):
            return super().backward_accumulate(indexes, grad_outputs,
                                               grad_inputs)
        # First order: the products of LinearGradData / LinearGradWeight
        # without their nodes, each added (in place, it is new) to the
        # gradient the input has so far.  So a weight used at every step
        # of a sequence has one partial sum alive, not one gradient per
        # step summed at the end.
        x, W = data
        gy = gy.array
        ret = []
        for i, g in zip(indexes, grad_inputs):
            if i == 0:
                gx = _gy_at_W(gy, W, turn=False)
            elif i == 1:
                gx = gy.T @ x
            else:
                gx = gy.sum(axis=0)
            if g is not None:
                gx += g.array
            ret.append(_new_variable(gx))
        return tuple(ret)


class _WeightGradSum(LeafSum):
    """``gW = sum_k gy_k^T x_k`` over the applications of a leaf weight in
    one backward pass, as one GEMM over the rows of all ``(gy_k, x_k)``
    (measured on an LSTM language model, 35 steps of batch 20, a 10,000 x
    200 output weight: 13 ms against 36 ms for a product and an addition
    per step).  In float16 each product is added at once (its products
    round in float16, as one product per step did)."""

    __slots__ = ('_ours',)

    def __init__(self, W, gy):
        super().__init__(W.shape, W.dtype)
        if W.dtype.itemsize < 4:
            self._limit = 0
        # Where the products of W run as thin GEMMs (on the C loops'
        # threads, not BLAS's), the sum runs on chainer-ng's threads too
        # (chainer.utils._blas): a multi-threaded BLAS call would leave a
        # worker spinning on a core for about 0.1 s, through the next
        # step's thin GEMMs (the LSTM step, medians of 11 alternated: 117
        # against 120 to 132 ms).  Elsewhere (an MLP of batch 100, whose
        # products are BLAS's) BLAS's own threads are the faster.
        self._ours = _thin_ok(gy, W)

    def flush(self, value, gy, x):
        g = _blas.matmul(gy.T, x) if self._ours else gy.T @ x
        if value is None:
            return g
        value += g
        return value


class LinearGradData(FunctionNode):
    """``gx = gy W``: the input gradient of :class:`LinearFunction`."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        W, gy = inputs
        return _gy_at_W(gy, W.astype(gy.dtype, copy=False), turn=False),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradWeight().apply((ggx, gy))[0])
        if 1 in indexes:
            ret.append(linear(ggx, W))
        return tuple(ret)


class LinearGradWeight(FunctionNode):
    """``gW = gy^T x``: the weight gradient of :class:`LinearFunction`."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return gy.T @ x.astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData().apply((ggW, gy))[0])
        if 1 in indexes:
            ret.append(linear(x, ggW))
        return tuple(ret)


def linear(x, W, b=None, n_batch_axes=1):
    """Linear function, or affine transformation.

    Computes ``y = x W^T + b``. The first ``n_batch_axes`` axes of ``x``
    are batch axes; the remaining ones are flattened into the feature axis,
    whose size must be ``W.shape[1]``.

    Args:
        x (~chainer.Variable or array): Input of shape
            ``(s_1, ..., s_B, ...)`` with ``B = n_batch_axes``.
        W (~chainer.Variable or array): Weight of shape ``(M, N)``.
        b (~chainer.Variable or array): Bias of shape ``(M,)`` (optional).
        n_batch_axes (int): Number of batch axes (positive).

    Returns:
        ~chainer.Variable: Output of shape ``(s_1, ..., s_B, M)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((3, 4), np.float32)
    >>> W = np.ones((2, 4), np.float32)
    >>> F.linear(x, W, np.zeros(2, np.float32)).array
    array([[4., 4.],
           [4., 4.],
           [4., 4.]], dtype=float32)
    """
    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0.')
    try:
        shape = x.shape
    except AttributeError:
        raise not_an_array('linear', 'x', type(x).__name__) from None
    if len(shape) != n_batch_axes + 1:
        from chainer.functions.array.reshape import reshape
        if len(shape) < n_batch_axes:
            raise ValueError(
                'linear: x has {} axes, fewer than n_batch_axes={}'.format(
                    len(shape), n_batch_axes))
        batch_shape = shape[:n_batch_axes]
        batch = 1
        for s in batch_shape:
            batch *= s
        x = reshape(x, (batch, -1) if batch else (0, W.shape[1]))
        args = (x, W) if b is None else (x, W, b)
        y, = LinearFunction().apply(args)
        if n_batch_axes > 1:
            y = reshape(y, batch_shape + (-1,) if batch else
                        batch_shape + (y.shape[1],))
        return y
    if n_batch_axes > 1:
        from chainer.functions.array.reshape import reshape
        batch_shape = shape[:n_batch_axes]
        x = reshape(x, (-1, shape[-1]))
        args = (x, W) if b is None else (x, W, b)
        y, = LinearFunction().apply(args)
        return reshape(y, batch_shape + (y.shape[1],))
    args = (x, W) if b is None else (x, W, b)
    return LinearFunction().apply(args)[0]
