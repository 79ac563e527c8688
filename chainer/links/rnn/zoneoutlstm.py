"""The fully-connected LSTM with zoneout."""

import chainer
from chainer import link
from chainer import variable
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.noise.zoneout import zoneout
from chainer.links.connection.linear import Linear
from chainer.links.rnn.lstm import _check_state, _split_gates
from chainer.utils import argument


class StatefulZoneoutLSTM(link.Chain):
    """Stateful LSTM layer with zoneout (Krueger et al., 2016).

    In training mode (``chainer.config.train``) each element of the new
    cell state keeps its previous value with probability ``c_ratio``, and
    each element of the new output with probability ``h_ratio`` (see
    :func:`F.zoneout`); the output is computed from the new cell state
    before zoneout. In test mode it is a plain LSTM.

    Args:
        in_size (int): The input size.
        out_size (int): The state (and output) size.
        c_ratio (float): The zoneout ratio of the cell state.
        h_ratio (float): The zoneout ratio of the output.

    Attributes:
        upward (~chainer.links.Linear): Input to the gates (interleaved
            ``a, i, f, o``, as :func:`F.lstm`).
        lateral (~chainer.links.Linear): Output state to the gates.
        c, h (~chainer.Variable): The states (None before the first call).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> lstm = L.StatefulZoneoutLSTM(3, 2)
    >>> lstm(np.ones((4, 3), np.float32)).shape
    (4, 2)
    """

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5,
                 **kwargs):
        if 'train' in kwargs:
            raise ValueError('train argument is not supported anymore. Use '
                             'chainer.using_config')
        if kwargs:  # Chainer's text
            raise argument.unexpected_error('assert_kwargs_empty', kwargs)
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        self.reset_state()
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        if self.c is not None:
            visitor.visit_variable(self.c)
        if self.h is not None:
            visitor.visit_variable(self.h)

    def set_state(self, c, h):
        """Sets the cell state ``c`` and the output ``h`` (Variables)."""
        _check_state('StatefulZoneoutLSTM.set_state', c=c, h=h)
        c.to_device(self.device)
        h.to_device(self.device)
        self.c, self.h = c, h

    def reset_state(self):
        """Forgets the state (``c`` and ``h`` become None)."""
        self.c = self.h = None

    def forward(self, x):
        """Updates the state with the input ``x`` and returns ``h``."""
        xp = self.xp
        shape = (x.shape[0], self.state_size)
        with chainer.using_device(self.device):
            if self.h is None:
                self.h = variable.Variable(xp.zeros(shape, dtype=x.dtype))
            if self.c is None:
                self.c = variable.Variable(xp.zeros(shape, dtype=x.dtype))
        a, i, f, o = _split_gates(self.upward(x) + self.lateral(self.h))
        c_new = tanh(a) * sigmoid(i) + sigmoid(f) * self.c
        h_new = sigmoid(o) * tanh(c_new)
        self.c = zoneout(self.c, c_new, self.c_ratio)
        self.h = zoneout(self.h, h_new, self.h_ratio)
        return self.h
