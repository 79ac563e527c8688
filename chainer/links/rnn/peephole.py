"""The fully-connected LSTM with peephole connections."""

import chainer
from chainer import link
from chainer import variable
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.links.connection.linear import Linear
from chainer.links.rnn.lstm import _split_gates


class StatefulPeepholeLSTM(link.Chain):
    """Fully-connected LSTM layer with peephole connections.

    Like :class:`~chainer.links.LSTM`, but the input and forget gates also
    see the previous cell state, and the output gate the new one, through
    the (bias-free) Linear links ``peep_i``, ``peep_f`` and ``peep_o``::

        a, i, f, o = gates of upward(x) + lateral(h)   (interleaved)
        c = tanh(a) * sigmoid(i + peep_i(c)) + sigmoid(f + peep_f(c)) * c
        h = sigmoid(o + peep_o(c_new)) * tanh(c_new)

    Args:
        in_size (int): The input size.
        out_size (int): The state (and output) size.

    Attributes:
        upward, lateral, peep_i, peep_f, peep_o (~chainer.links.Linear):
            The weights.
        c, h (~chainer.Variable): The cell and output states (None before
            the first call).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> lstm = L.StatefulPeepholeLSTM(3, 2)
    >>> lstm(np.ones((4, 3), np.float32)).shape
    (4, 2)
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        self.reset_state()
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = Linear(out_size, out_size, nobias=True)
            self.peep_f = Linear(out_size, out_size, nobias=True)
            self.peep_o = Linear(out_size, out_size, nobias=True)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        if self.c is not None:
            visitor.visit_variable(self.c)
        if self.h is not None:
            visitor.visit_variable(self.h)

    def reset_state(self):
        """Forgets the state (``c`` and ``h`` become None)."""
        self.c = self.h = None

    def forward(self, x):
        """Updates the state with the input ``x`` and returns ``h``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            xp = self.xp
            with chainer.using_device(self.device):
                self.c = variable.Variable(
                    xp.zeros((x.shape[0], self.state_size), dtype=x.dtype))
        a, i, f, o = _split_gates(lstm_in)
        i = sigmoid(i + self.peep_i(self.c))
        f = sigmoid(f + self.peep_f(self.c))
        self.c = tanh(a) * i + f * self.c
        o = sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh(self.c)
        return self.h
