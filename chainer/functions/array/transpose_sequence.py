"""``F.transpose_sequence``: a batch of sequences to a sequence of
batches (and back: the operation is its own transpose)."""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments


class TransposeSequence(FunctionNode):
    """``ys[t][i] = xs[i][t]`` for sequences sorted by decreasing length."""

    def forward(self, xs):
        for i, x in enumerate(xs):
            if x.ndim == 0:
                raise TypeError('transpose_sequence: input {} is 0-dimensional'
                                ' (each must be a sequence)'.format(i))
            if i and xs[i - 1].shape[0] < x.shape[0]:
                raise invalid_type(
                    self, 'in_types[{}].shape[0] >= in_types[{}].shape[0]'
                    .format(i - 1, i), '{} < {}'.format(
                        xs[i - 1].shape[0], x.shape[0]))
        self._shapes = [x.shape for x in xs]
        if not xs or len(xs[0]) == 0:
            return ()
        xp = backend.get_array_module(*xs)
        dtype = xs[0].dtype
        ys = []
        for t in range(len(xs[0])):
            batch = [x[t] for x in xs if len(x) > t]
            ys.append(xp.stack(batch).astype(dtype, copy=False))
        return tuple(ys)

    def backward(self, indexes, grad_outputs):
        gys = list(grad_outputs)
        if any(g is None for g in gys):
            xp = backend.get_array_module(*[g for g in gys if g is not None])
            dtype = self.inputs[0].dtype
            for t, g in enumerate(gys):
                if g is None:
                    n = sum(1 for s in self._shapes if s[0] > t)
                    gys[t] = chainer.Variable(
                        xp.zeros((n,) + self._shapes[0][1:], dtype))
        gxs = list(TransposeSequence().apply(gys))
        # Inputs of length 0 take no part in the output.
        xp = backend.get_array_module(gys[0])
        for s in self._shapes[len(gxs):]:
            gxs.append(chainer.Variable(xp.zeros(s, gys[0].dtype)))
        return tuple(gxs[i] for i in indexes)


@names_bad_arguments
def transpose_sequence(xs):
    """Transpose a list of Variables.

    Turns a batch of sequences, sorted by decreasing length, into a
    sequence of batches: ``ys[t]`` stacks the ``t``-th elements of the
    sequences that are longer than ``t``.

    Args:
        xs (list of ~chainer.Variable or arrays): Sequences (``xs[i]`` has
            shape ``(len_i, ...)``, ``len_0 >= len_1 >= ...``).

    Returns:
        tuple of ~chainer.Variable: ``len(xs[0])`` batches.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> xs = [np.array([1., 2., 3.], np.float32),
    ...       np.array([4., 5.], np.float32)]
    >>> [y.array.tolist() for y in F.transpose_sequence(xs)]
    [[1.0, 4.0], [2.0, 5.0], [3.0]]
    """
    if not xs:
        return ()
    return TransposeSequence().apply(tuple(xs))
