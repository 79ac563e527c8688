"""Embedding lookup: ``F.embed_id`` (``y = W[x]``)."""

import numpy

import chainer
from chainer import backend
from chainer._backprop import LeafSum
from chainer.function_node import _RELEASED, FunctionNode, _graph_free
from chainer.functions._errors import (chainer_text, invalid_type,
                                       names_bad_arguments)
from chainer.variable import _new_variable


class EmbedIDFunction(FunctionNode):
    """Rows of ``W`` picked by the integer ids ``x``."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def forward(self, inputs):
        x, W = inputs
        if x.dtype.kind != 'i':
            raise invalid_type(self, 'in_types[0].dtype.kind == i',
                               '{} != i'.format(x.dtype.kind))
        if W.dtype.kind != 'f':
            raise invalid_type(self, 'in_types[1].dtype.kind == f',
                               '{} != f'.format(W.dtype.kind))
        if W.ndim != 2:
            raise invalid_type(self, 'in_types[1].ndim == 2', '{} != 2'.format(W.ndim))
        debug = chainer.config.debug
        if (debug or isinstance(x, numpy.ndarray)) and x.size:
            _check_ids(x, len(W), self.ignore_label, debug)
        self.retain_inputs((0,))
        self._w_shape = W.shape
        if self.ignore_label is None:
            return W[x],
        xp = backend.get_array_module(x)
        ignored = x == self.ignore_label
        y = W[xp.where(ignored, 0, x)]
        y[ignored] = 0
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return None, EmbedIDGrad(self._w_shape, self.ignore_label).apply(
            (x, grad_outputs[0]))[0]

    _sums_leaf_grads = True

    def _backward_arrays(self, indexes, gys, sums=None):
        # No graph to record, and a leaf W: its gradient is kept as the
        # rows to add up, scattered once (one array for all the steps of a
        # sequence, not a copy of the gradient per step).  Otherwise
        # backward_accumulate.
        data = self._retained_in_data
        gy = gys[0]
        w_node = self.inputs[1]
        if data is _RELEASED or gy is None or indexes != (1,) or \
                sums is None or w_node._creator_node is not None or \
                gy.dtype != w_node.dtype:
            return None
        acc = _RowSum.open(sums, w_node)
        if acc is None:
            sums[_RowSum, w_node] = acc = _RowSum(self._w_shape, gy.dtype)
            ret = acc,
        else:
            ret = None,
        acc.add(data[0], gy, self.ignore_label)
        return ret

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        data = self._retained_in_data
        gy = grad_outputs[0]
        if not _graph_free(data) or gy is None or indexes != (1,) or \
                gy.dtype != self.inputs[1].dtype:
            return super().backward_accumulate(indexes, grad_outputs,
                                               grad_inputs)
        # First order: the rows of gy added into a copy of the gradient W
        # has so far (an embedding used at every step keeps one partial
        # sum, not one weight-sized gradient per step summed at the end).
        g = grad_inputs[0]
        if g is None:
            xp = backend.get_array_module(gy.array)
            gW = xp.zeros(self._w_shape, gy.dtype)
        else:
            gW = g.array.copy()
        _scatter_add(gW, data[0], gy.array, self.ignore_label)
        return _new_variable(gW),


def _check_ids(x, n, ignore_label, debug):
    """Chainer's checks of the ids, in its words: in debug mode every id
    out of ``[0, n)``; otherwise an id past the end fails as NumPy's
    indexing fails in Chainer, and a negative one (which indexing would
    silently take from the end) gets the debug mode's error."""
    kept = True if ignore_label is None else x != ignore_label
    neg = (x < 0) & kept
    past = (x >= n) & kept
    if debug and (neg | past).any() or neg.any():
        raise chainer_text(ValueError(
            'Each not ignored `x` value need to satisfy `0 <= x < len(W)`'))
    if past.any():
        raise chainer_text(IndexError(
            'index {} is out of bounds for axis 0 with size {}'.format(
                x.ravel()[past.ravel().argmax()], n)))


class _RowSum(LeafSum):
    """The gradient of a leaf embedding matrix over one backward pass: the
    rows of every ``gy`` added at their ids (but ignored ones), in one
    scatter (in the order they came, so the same sums as one scatter per
    application)."""

    __slots__ = ()

    def add(self, x, gy, ignore_label):
        super().add(*_rows(x, gy, ignore_label))

    def flush(self, value, x, gy):
        if value is None:
            value = backend.get_array_module(gy).zeros(self.shape,
                                                       self.dtype)
        _scatter_add(value, x, gy, None)
        return value


def _rows(x, gy, ignore_label):
    """The ids of ``x`` and the rows of ``gy`` for them, flat, without
    the ignored ones."""
    x = x.ravel()
    gy = gy.reshape(x.size, -1)
    if ignore_label is not None:
        keep = x != ignore_label
        x, gy = x[keep], gy[keep]
    return x, gy


def _scatter_add(gW, x, gy, ignore_label):
    """``gW[x[k]] += gy[k]`` for every k, repeated ids summed."""
    x, gy = _rows(x, gy, ignore_label)
    xp = backend.get_array_module(x)
    if xp is not numpy:
        import cupyx
        cupyx.scatter_add(gW, x, gy)
    elif len(numpy.unique(x)) == len(x):
        gW[x] += gy  # distinct ids: a plain indexed add, the same sums
    else:
        numpy.add.at(gW, x, gy)


class EmbedIDGrad(FunctionNode):
    """The gradient of :class:`EmbedIDFunction` in ``W``: rows of ``gy``
    added up per id."""

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        gW = xp.zeros(self.w_shape, gy.dtype)
        _scatter_add(gW, x, gy, self.ignore_label)
        return gW,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return None, embed_id(x, grad_outputs[0], self.ignore_label)


@names_bad_arguments
def embed_id(x, W, ignore_label=None):
    """Efficient linear function for one-hot input.

    The same as ``W[x]``, the rows of the embedding matrix picked by the
    integer ids in ``x`` (a linear layer on one-hot vectors), except that
    ids equal to ``ignore_label`` give rows of zeros.

    Args:
        x (~chainer.Variable or array): Integer ids of any shape.
        W (~chainer.Variable or array): Embedding matrix ``(n_vocab,
            n_units)``.
        ignore_label (int or None): The id that gives a zero vector.

    Returns:
        ~chainer.Variable: Output of shape ``x.shape + (n_units,)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> W = np.array([[0, 0], [1, 1], [2, 2]], np.float32)
    >>> F.embed_id(np.array([2, -1], np.int32), W, ignore_label=-1).array
    array([[2., 2.],
           [0., 0.]], dtype=float32)
    """
    return EmbedIDFunction(ignore_label=ignore_label).apply((x, W))[0]
