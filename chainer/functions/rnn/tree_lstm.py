"""``F.tree_lstm``: the Child-Sum TreeLSTM cell (Tai et al., 2015) with one
forget gate per child.

For ``n`` children, ``x`` has ``(3 + n) * units`` channels in blocks (not
interleaved): viewed as ``(batch, 3 + n, units, ...)``, the second axis
holds ``a, i, o, f_1, ..., f_n``.
"""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.functions.rnn.lstm import _check_cell, _sigmoid


def _blocks(x, n):
    r = x.reshape((x.shape[0], n, x.shape[1] // n) + x.shape[2:])
    return [r[:, k] for k in range(n)]


class TreeLSTM(FunctionNode):
    """TreeLSTM unit: ``(c_1, ..., c_n, x) -> (c, h)``."""

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        cs, x = inputs[:-1], inputs[-1]
        n = len(cs)
        for k, c in enumerate(cs):
            _check_cell(self, c, x, 3 + n, 'c_{}'.format(k + 1))
            if c.shape[0] != x.shape[0]:
                raise invalid_type(
                    self, 'c_{}.shape[0] == x.shape[0]'.format(k + 1),
                    '{} != {}'.format(c.shape[0], x.shape[0]))
        xp = backend.get_array_module(x)
        gates = _blocks(x, 3 + n)
        a, i, o = xp.tanh(gates[0]), _sigmoid(xp, gates[1]), \
            _sigmoid(xp, gates[2])
        # the forget terms summed first, then a * i added (Chainer's order:
        # its rounding where the cells' dtypes differ, with type_check off)
        fc = 0
        for f, c_k in zip(gates[3:], cs):
            fc = fc + _sigmoid(xp, f) * c_k
        c = a * i + fc
        return c, o * xp.tanh(c)

    def backward(self, indexes, grad_outputs):
        from chainer.functions.activation.sigmoid import sigmoid
        from chainer.functions.activation.tanh import tanh
        from chainer.functions.array.reshape import reshape
        from chainer.functions.array.stack import stack
        inputs = self.get_retained_inputs()
        cs, x = inputs[:-1], inputs[-1]
        n = len(cs)
        gc, gh = grad_outputs
        gates = _blocks(x, 3 + n)
        a, i, o = tanh(gates[0]), sigmoid(gates[1]), sigmoid(gates[2])
        fs = [sigmoid(f) for f in gates[3:]]
        c = a * i
        for f, c_k in zip(fs, cs):
            c = c + f * c_k
        tanh_c = tanh(c)
        if gh is None:
            go = o * 0
        else:
            g = gh * o * (1 - tanh_c * tanh_c)
            gc = g if gc is None else gc + g
            go = gh * tanh_c * (o * (1 - o))
        ret = []
        for k in indexes:
            if k < n:
                ret.append(gc * fs[k])
            else:
                g_gates = [gc * i * (1 - a * a), gc * a * (i * (1 - i)), go]
                g_gates += [gc * c_k * (f * (1 - f)) for f, c_k in zip(fs, cs)]
                ret.append(reshape(stack(g_gates, axis=1), x.shape))
        return tuple(ret)


def tree_lstm(*inputs):
    """TreeLSTM unit as an activation function.

    For ``n`` children with cell states ``c_1 .. c_n`` and the gates
    ``a, i, o, f_1 .. f_n`` of ``x``:
    ``c = tanh(a) * sigmoid(i) + sum_k sigmoid(f_k) * c_k`` and
    ``h = sigmoid(o) * tanh(c)``.

    Args:
        inputs: ``c_1, ..., c_n, x``: the children's cell states
            ``(B, units, ...)`` and the gate inputs
            ``(B, (3 + n) * units, ...)``, whose channels are the blocks
            ``a, i, o, f_1, ..., f_n`` of ``units`` channels each.

    Returns:
        tuple: ``(c, h)``, the new cell state and the output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> c1 = np.ones((1, 1), np.float32)
    >>> x = np.array([[0., 0., 0., 100., -100.]], np.float32)
    >>> c, h = F.tree_lstm(c1, 2 * c1, x)  # keeps c1, forgets c2
    >>> c.array
    array([[1.]], dtype=float32)
    """
    if len(inputs) < 2:
        raise invalid_type('TreeLSTM', 'in_types.size >= 2',
                           '{} < 2'.format(len(inputs)))
    return TreeLSTM().apply(inputs)
