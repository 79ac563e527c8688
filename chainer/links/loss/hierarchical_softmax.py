"""``L.BinaryHierarchicalSoftmax``: hierarchical softmax over a binary
tree."""

import copy
import heapq

import numpy

import chainer
from chainer import backend
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_same_dtype, invalid_type


class TreeParser:
    """Numbers the internal nodes of a tree of nested pairs (pre-order)
    and records, for each leaf, the nodes on its path and the branch
    codes (+1 left, -1 right)."""

    def __init__(self):
        self.next_id = 0
        self.paths = {}
        self.codes = {}

    def size(self):
        return self.next_id

    def get_paths(self):
        return self.paths

    def get_codes(self):
        return self.codes

    def parse(self, tree):
        # An explicit stack: deep (e.g. Huffman) trees must not recurse.
        stack = [(tree, [], [])]
        while stack:
            node, path, code = stack.pop()
            if isinstance(node, tuple):
                if len(node) != 2:
                    raise ValueError(
                        'BinaryHierarchicalSoftmax: a node of the tree must '
                        'be a pair, got {!r}'.format(node))
                node_id = self.next_id
                self.next_id += 1
                left, right = node
                # right is pushed first so that ids follow pre-order.
                stack.append((right, path + [node_id], code + [-1.0]))
                stack.append((left, path + [node_id], code + [1.0]))
            else:
                self.paths[node] = path
                self.codes[node] = code


class BinaryHierarchicalSoftmaxFunction(FunctionNode):
    """Hierarchical softmax loss, summed over the batch: for each example
    ``-sum_k log sigmoid(code_k * W[node_k] . x)`` over its leaf's path."""

    def __init__(self, tree):
        parser = TreeParser()
        parser.parse(tree)
        paths = parser.get_paths()
        codes = parser.get_codes()
        n_vocab = max(paths.keys()) + 1
        self.paths = numpy.concatenate(
            [numpy.asarray(paths.get(i, []), numpy.int32)
             for i in range(n_vocab)]).astype(numpy.int32)
        self.codes = numpy.concatenate(
            [numpy.asarray(codes.get(i, []), numpy.float32)
             for i in range(n_vocab)]).astype(numpy.float32)
        lengths = [len(paths.get(i, [])) for i in range(n_vocab)]
        self.begins = numpy.concatenate(
            [[0], numpy.cumsum(lengths)]).astype(numpy.int32)
        self.parser_size = parser.size()

    def _gather(self, t):
        """For the labels ``t``: the sample of each path element, its node
        and its code (index bookkeeping on the host, as NumPy arrays)."""
        t = backend.CpuDevice().send(t).astype(numpy.int64)
        n_vocab = self.begins.size - 1
        if t.size and (t.min() < 0 or t.max() >= n_vocab):
            raise ValueError(
                'BinaryHierarchicalSoftmax: labels must be in [0, {}), got '
                '[{}, {}]'.format(n_vocab, t.min(), t.max()))
        start, stop = self.begins[t], self.begins[t + 1]
        lengths = stop - start
        sample = numpy.repeat(numpy.arange(t.size), lengths)
        offset = numpy.arange(sample.size) - numpy.repeat(
            numpy.cumsum(lengths) - lengths, lengths)
        pos = start[sample] + offset
        return sample, self.paths[pos], self.codes[pos]

    def forward(self, inputs):
        x, t, W = inputs
        if x.ndim != 2:
            raise invalid_type(self, 'x.ndim == 2', '{} != 2'.format(x.ndim))
        if t.dtype.kind not in 'iu' or t.shape != x.shape[:1]:
            raise invalid_type(self, 't.dtype.kind == i and t.shape == '
                               'x.shape[:1]', '{}, {}'.format(t.dtype,
                                                              t.shape))
        check_same_dtype(self, W, x, ('in_types[2]', 'in_types[0]'))
        if W.shape[1] != x.shape[1]:
            raise invalid_type(self, 'W.shape[1] == x.shape[1]', '{} != {}'
                               .format(W.shape[1], x.shape[1]))
        self.retain_inputs((0, 2))
        xp = backend.get_array_module(x)
        sample, node, code = self._gather(t)
        self._sample, self._node = xp.asarray(sample), xp.asarray(node)
        self._code = xp.asarray(code.astype(x.dtype))
        sample, node = self._sample, self._node
        s = (W[node] * x[sample]).sum(axis=1) * self._code
        # softplus(-s) = log(1 + exp(-s)), stable for any |s|.
        if xp is not numpy:
            loss = xp.logaddexp(0, -s.astype(numpy.float64)).sum()
            return xp.asarray(loss, x.dtype),
        # Chainer's CPU rounding, so that printed losses agree to the last
        # digit: in x's dtype, each example's path summed, then the
        # examples added one after another.
        terms = numpy.logaddexp(x.dtype.type(0), -s)
        if terms.size == 0:
            return numpy.zeros((), x.dtype),
        starts = numpy.flatnonzero(numpy.r_[True, sample[1:] != sample[:-1]])
        per_example = numpy.add.reduceat(terms, starts)
        return numpy.asarray(numpy.cumsum(per_example)[-1], x.dtype),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.activation.sigmoid import sigmoid
        from chainer.functions.array.get_item import GetItemGrad
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ws, xs = W[self._node], x[self._sample]
        code = self._code
        s = _sum(ws * xs, axis=1) * code
        # d softplus(-s) / ds = -sigmoid(-s)
        g = reshape(-sigmoid(-s) * code * gy, (code.size, 1))
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(GetItemGrad(self._sample, x.shape, x.dtype).apply(
                    (g * ws,))[0])
            elif i == 2:
                ret.append(GetItemGrad(self._node, W.shape, W.dtype).apply(
                    (g * xs,))[0])
            else:
                ret.append(None)
        return tuple(ret)


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax layer over binary tree.

    The words are the leaves (ints ``0 .. V-1``) of a binary tree given as
    nested pairs, e.g. ``((0, 1), 2)``.  Each internal node ``k`` has a
    weight row ``W[k]``; the probability of a word is the product, over
    the nodes on its path, of ``sigmoid(+-W[k] . x)`` (+ for the left
    branch, - for the right one).  ``forward`` returns the negative log
    probability summed over the batch.

    Args:
        in_size (int): Input size.
        tree: The tree of nested pairs (see :meth:`create_huffman_tree`).
        dtype: Dtype of ``W`` (default ``chainer.config.dtype``).

    Attributes:
        W (~chainer.Parameter): ``(number of internal nodes, in_size)``,
            drawn uniformly from ``[-1, 1]``.

    >>> import numpy as np
    >>> hs = BinaryHierarchicalSoftmax(3, ((0, 1), 2))
    >>> hs.W.shape
    (2, 3)
    """

    def __init__(self, in_size, tree, dtype=None):
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        self._func = BinaryHierarchicalSoftmaxFunction(tree)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers.Uniform(1, dtype),
                (self._func.parser_size, in_size))

    @staticmethod
    def create_huffman_tree(word_counts):
        """Makes a Huffman tree (nested pairs) from a dict ``word ->
        count``: the two least frequent subtrees are merged first. Ties go
        to the subtree holding the earliest inserted word (a merged subtree
        ranks as its earliest word), so equal counts build Chainer's tree."""
        if len(word_counts) == 0:
            raise ValueError('Empty vocabulary')
        heap = [(count, i, word)
                for i, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) > 1:
            c1, i1, n1 = heapq.heappop(heap)
            c2, i2, n2 = heapq.heappop(heap)
            heapq.heappush(heap, (c1 + c2, min(i1, i2), (n1, n2)))
        return heap[0][2]

    def forward(self, x, t):
        """The loss of ``x`` ``(N, in_size)`` for the words ``t``
        ``(N,)``, summed over the batch."""
        # A fresh node per call (a node is applied once); the copy shares
        # the parsed tables of the never-applied template.
        return copy.copy(self._func).apply((x, t, self.W))[0]
