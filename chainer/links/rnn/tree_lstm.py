"""TreeLSTM units (Tai et al., 2015): :class:`ChildSumTreeLSTM` and
:class:`NaryTreeLSTM`, built on :func:`F.tree_lstm`.

Both are called as ``link(c_1, ..., c_n, h_1, ..., h_n, x)`` with the
children's cell states and outputs (None for a missing child) and the
node's input, and return ``(c, h)``.
"""

from chainer import link
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.concat import concat
from chainer.functions.array.split_axis import split_axis
from chainer.functions.rnn.tree_lstm import tree_lstm
from chainer.links.connection.linear import Linear


def _leaf(aio, n):
    # a node without children: c = tanh(a) * sigmoid(i), h = sigmoid(o) * tanh(c)
    a, i, o = split_axis(aio[:, :3 * n], 3, axis=1)
    c = tanh(a) * sigmoid(i)
    return c, sigmoid(o) * tanh(c)


def _split_args(name, cshsx):
    if len(cshsx) % 2 != 1:
        raise ValueError(
            '{}: expected the arguments (c_1, ..., c_n, h_1, ..., h_n, x), '
            'an odd number, got {}'.format(name, len(cshsx)))
    n = len(cshsx) // 2
    return cshsx[:n], cshsx[n:-1], cshsx[-1]


class _TreeLSTMBase(link.Chain):

    def __init__(self, in_size, out_size):
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size

    def _x_or_zeros(self, x, cs, hs):
        """x, or zeros in its place when only the children are given (as
        in Chainer); all of them None is a ValueError."""
        if x is not None:
            return x
        given = [v for v in list(cs) + list(hs) if v is not None]
        if not given:
            raise ValueError('{}: all the inputs (cs, hs and x) are '
                             'None'.format(type(self).__name__))
        if self.W_x.W.array is None:
            raise ValueError('{}: x is None, so its size is unknown; give '
                             'in_size'.format(type(self).__name__))
        return self.xp.zeros((given[0].shape[0], self.W_x.W.shape[1]),
                             dtype=given[0].dtype)

    def _zeros_for_none(self, vs, x):
        if all(v is not None for v in vs):
            return list(vs)
        zero = self.xp.zeros((x.shape[0], self.state_size), dtype=x.dtype)
        return [zero if v is None else v for v in vs]


class ChildSumTreeLSTM(_TreeLSTMBase):
    """Child-Sum TreeLSTM unit.

    The cell input and the input and output gates see the sum of the
    children's outputs; each child ``k`` has its own forget gate
    ``sigmoid(W_x_f(x) + W_h_f(h_k))`` on its cell state. Any number of
    children (None entries are skipped, no children: a leaf).

    Args:
        in_size (int): The input size.
        out_size (int): The state (and output) size.

    Attributes:
        W_x (~chainer.links.Linear): Input to the ``a, i, o, f`` blocks
            (``4 * out_size``).
        W_h_aio (~chainer.links.Linear): Sum of the children's outputs to
            ``a, i, o`` (no bias).
        W_h_f (~chainer.links.Linear): A child's output to its forget gate
            (no bias).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> tree = L.ChildSumTreeLSTM(3, 2)
    >>> x = np.ones((1, 3), np.float32)
    >>> c1, h1 = tree(x)  # a leaf
    >>> c, h = tree(c1, c1, h1, h1, x)  # two children
    >>> h.shape
    (1, 2)
    """

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        with self.init_scope():
            self.W_x = Linear(in_size, 4 * out_size)
            self.W_h_aio = Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx):
        """Returns ``(c, h)`` from ``(c_1, ..., c_n, h_1, ..., h_n, x)``."""
        cs, hs, x = _split_args('ChildSumTreeLSTM', cshsx)
        x = self._x_or_zeros(x, cs, hs)
        n = self.state_size
        W_x_in = self.W_x(x)
        pairs = [(c, h) for c, h in zip(cs, hs) if h is not None]
        if not pairs:
            return _leaf(W_x_in, n)
        W_x_aio, W_x_f = split_axis(W_x_in, [3 * n], axis=1)
        cs = self._zeros_for_none([c for c, _ in pairs], x)
        hs = [h for _, h in pairs]
        h_sum = hs[0]
        for h in hs[1:]:
            h_sum = h_sum + h
        aio = self.W_h_aio(h_sum) + W_x_aio
        # all children's forget gates with one matmul, side by side
        f_h = self.W_h_f(concat(hs, axis=0))
        f_h = concat(split_axis(f_h, len(hs), axis=0), axis=1) \
            if len(hs) > 1 else f_h
        f_in = f_h + concat([W_x_f] * len(hs), axis=1)
        return tree_lstm(*(cs + [concat([aio, f_in], axis=1)]))


class NaryTreeLSTM(_TreeLSTMBase):
    """N-ary TreeLSTM unit: exactly ``n_ary`` ordered children, each with
    its own weights ``W_h1 .. W_h{n_ary}`` to all the gates.

    Missing children (None) count as zeros; with no children at all the
    node is a leaf.

    Args:
        in_size (int): The input size.
        out_size (int): The state (and output) size.
        n_ary (int): The number of children.

    Attributes:
        W_x (~chainer.links.Linear): Input to the ``a, i, o, f_1 ..
            f_n`` blocks (``(3 + n_ary) * out_size``).
        W_h1, ..., W_h{n_ary} (~chainer.links.Linear): Child ``k``'s output
            to the gates (no bias).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> tree = L.NaryTreeLSTM(3, 2, n_ary=2)
    >>> x = np.ones((1, 3), np.float32)
    >>> c1, h1 = tree(None, None, None, None, x)  # a leaf
    >>> c, h = tree(c1, None, h1, None, x)
    >>> h.shape
    (1, 2)
    """

    def __init__(self, in_size, out_size, n_ary=2):
        if n_ary < 1:
            raise ValueError('NaryTreeLSTM: n_ary must be at least 1, got '
                             '{}'.format(n_ary))
        super().__init__(in_size, out_size)
        self.n_ary = n_ary
        with self.init_scope():
            self.W_x = Linear(in_size, (3 + n_ary) * out_size)
            for k in range(1, n_ary + 1):
                setattr(self, 'W_h{}'.format(k),
                        Linear(out_size, (3 + n_ary) * out_size, nobias=True))

    def forward(self, *cshsx):
        """Returns ``(c, h)`` from ``(c_1, ..., c_n, h_1, ..., h_n, x)``
        with ``n == n_ary``."""
        if len(cshsx) != 2 * self.n_ary + 1:
            raise ValueError(
                'NaryTreeLSTM: expected 2 * n_ary + 1 = {} arguments (c_1, '
                '..., c_n, h_1, ..., h_n, x), got {}'.format(
                    2 * self.n_ary + 1, len(cshsx)))
        cs, hs, x = _split_args('NaryTreeLSTM', cshsx)
        x = self._x_or_zeros(x, cs, hs)
        gates = self.W_x(x)
        if all(h is None for h in hs):
            return _leaf(gates, self.state_size)
        for k, h in enumerate(hs, 1):
            if h is not None:
                gates = gates + getattr(self, 'W_h{}'.format(k))(h)
        cs = self._zeros_for_none(cs, x)
        return tree_lstm(*(cs + [gates]))
