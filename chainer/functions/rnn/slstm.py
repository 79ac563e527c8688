"""``F.slstm``: the S-LSTM cell (Zhu et al., 2015), merging two children.

Each of ``x1`` and ``x2`` holds ``4 * units`` interleaved gate channels
``a, i, f, o`` (as in :func:`~chainer.functions.lstm`).
"""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type
from chainer.functions.rnn.lstm import (_GradNode, _check_cell, _gates,
                                        _join_gates, _sigmoid)


class SLSTM(FunctionNode):
    """S-LSTM unit: ``(c_prev1, c_prev2, x1, x2) -> (c, h)``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        c1, c2, x1, x2 = inputs
        _check_cell(self, c1, x1, 4, 'c_prev1', 'x1')
        _check_cell(self, c2, x2, 4, 'c_prev2', 'x2')
        for (n1, a1), (n2, a2) in (((('c_prev1', c1), ('c_prev2', c2))),
                                   (('c_prev1', c1), ('x1', x1)),
                                   (('x1', x1), ('x2', x2))):
            if a1.shape[0] != a2.shape[0]:
                raise invalid_type(
                    self, '{}.shape[0] == {}.shape[0]'.format(n1, n2),
                    '{} != {}'.format(a1.shape[0], a2.shape[0]))
        xp = backend.get_array_module(x1)
        a1, i1, f1, o1 = _gates(x1, 4)
        a2, i2, f2, o2 = _gates(x2, 4)
        c = xp.tanh(a1) * _sigmoid(xp, i1) + xp.tanh(a2) * _sigmoid(xp, i2) \
            + _sigmoid(xp, f1) * c1 + _sigmoid(xp, f2) * c2
        h = _sigmoid(xp, o1 + o2) * xp.tanh(c)
        return c, h

    def backward(self, indexes, grad_outputs):
        from chainer.functions.activation.sigmoid import sigmoid
        from chainer.functions.activation.tanh import tanh
        c1, c2, x1, x2 = self.get_retained_inputs()
        gc, gh = grad_outputs
        a1, i1, f1, o1 = _gates(x1, 4)
        a2, i2, f2, o2 = _gates(x2, 4)
        a1, i1, f1 = tanh(a1), sigmoid(i1), sigmoid(f1)
        a2, i2, f2 = tanh(a2), sigmoid(i2), sigmoid(f2)
        o = sigmoid(o1 + o2)
        tanh_c = tanh(a1 * i1 + a2 * i2 + f1 * c1 + f2 * c2)
        if gh is None:
            go = o * 0
        else:
            g = gh * o * (1 - tanh_c * tanh_c)
            gc = g if gc is None else gc + g
            go = gh * tanh_c * (o * (1 - o))
        ret = []
        for k in indexes:
            if k == 0:
                ret.append(gc * f1)
            elif k == 1:
                ret.append(gc * f2)
            else:
                a, i, f, c = (a1, i1, f1, c1) if k == 2 else (a2, i2, f2, c2)
                ret.append(_join_gates(
                    (gc * i * (1 - a * a), gc * a * (i * (1 - i)),
                     gc * c * (f * (1 - f)), go), x1.shape))
        return tuple(ret)


def slstm(c_prev1, c_prev2, x1, x2):
    """S-LSTM units as an activation function.

    With the gates ``a1, i1, f1, o1`` of ``x1`` and ``a2, i2, f2, o2`` of
    ``x2`` (interleaved as in :func:`~chainer.functions.lstm`):
    ``c = tanh(a1) * sigmoid(i1) + tanh(a2) * sigmoid(i2) +
    sigmoid(f1) * c_prev1 + sigmoid(f2) * c_prev2`` and
    ``h = sigmoid(o1 + o2) * tanh(c)``.

    Args:
        c_prev1, c_prev2 (~chainer.Variable or array): The cell states of
            the two children, ``(B, units, ...)``.
        x1, x2 (~chainer.Variable or array): Their gate inputs,
            ``(B, 4 * units, ...)``.

    Returns:
        tuple: ``(c, h)``, the new cell state and the output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> c = np.ones((1, 1), np.float32)
    >>> x = np.array([[0., 0., 100., 0.]], np.float32)  # a, i, f, o
    >>> c, h = F.slstm(c, c, x, x)
    >>> c.array
    array([[2.]], dtype=float32)
    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))


def _slstm_grad_graph(c_prev1, c_prev2, x1, x2, c_next, gc, gh):
    """SLSTMGrad's outputs (on arrays, or built from F ops on Variables):
    the gradients of one S-LSTM step given its output cell ``c_next``."""
    import chainer
    if isinstance(x1, chainer.Variable):
        from chainer.functions.activation.sigmoid import sigmoid
        from chainer.functions.activation.tanh import tanh
        join = _join_gates
    else:
        xp = backend.get_array_module(x1)
        tanh = xp.tanh

        def sigmoid(v):
            return _sigmoid(xp, v)

        def join(gs, shape):
            return xp.stack(gs, axis=2).reshape(shape)
    a1, i1, f1, o1 = _gates(x1, 4)
    a2, i2, f2, o2 = _gates(x2, 4)
    a1, i1, f1 = tanh(a1), sigmoid(i1), sigmoid(f1)
    a2, i2, f2 = tanh(a2), sigmoid(i2), sigmoid(f2)
    o = sigmoid(o1 + o2)
    tanh_c = tanh(c_next)
    gc = gc + gh * o * (1 - tanh_c * tanh_c)
    go = gh * tanh_c * (o * (1 - o))
    gxs = [join((gc * i * (1 - a * a), gc * a * (i * (1 - i)),
                 gc * c * (f * (1 - f)), go), x1.shape)
           for a, i, f, c in ((a1, i1, f1, c_prev1), (a2, i2, f2, c_prev2))]
    return gc * f1, gc * f2, gxs[0], gxs[1]


class SLSTMGrad(_GradNode):
    """Chainer's node of the S-LSTM step's gradients: ``(c_prev1, c_prev2,
    x1, x2, c_next, gc, gh) -> (gc_prev1, gc_prev2, gx1, gx2)``,
    differentiable again."""

    _graph = staticmethod(_slstm_grad_graph)
