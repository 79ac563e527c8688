"""Gated Recurrent Units: :class:`StatelessGRU`, :class:`StatefulGRU` and
:class:`GRU` (the stateful one).

With ``r = sigmoid(W_r x + U_r h)``, ``z = sigmoid(W_z x + U_z h)`` and
``h_bar = tanh(W x + U (r * h))``, the new state is
``z * h_bar + (1 - z) * h``.
"""

from chainer import link
from chainer import variable
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.math.linear_interpolate import linear_interpolate
from chainer.links.connection.linear import Linear


class GRUBase(link.Chain):
    """The six Linear links of a GRU: ``W_r``, ``U_r``, ``W_z``, ``U_z``,
    ``W`` and ``U`` (``W_*`` from the input, ``U_*`` from the state)."""

    def __init__(self, in_size, out_size, init=None, inner_init=None,
                 bias_init=None):
        super().__init__()
        with self.init_scope():
            self.W_r = Linear(in_size, out_size, initialW=init,
                              initial_bias=bias_init)
            self.U_r = Linear(out_size, out_size, initialW=inner_init,
                              initial_bias=bias_init)
            self.W_z = Linear(in_size, out_size, initialW=init,
                              initial_bias=bias_init)
            self.U_z = Linear(out_size, out_size, initialW=inner_init,
                              initial_bias=bias_init)
            self.W = Linear(in_size, out_size, initialW=init,
                            initial_bias=bias_init)
            self.U = Linear(out_size, out_size, initialW=inner_init,
                            initial_bias=bias_init)


class StatelessGRU(GRUBase):
    """Stateless Gated Recurrent Unit function (GRU).

    Args:
        in_size (int): The input size.
        out_size (int): The state (and output) size.
        init: Initializer of the input weights ``W_r``, ``W_z``, ``W``.
        inner_init: Initializer of the state weights ``U_r``, ``U_z``,
            ``U``.
        bias_init: Initializer of all the biases (default 0).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> gru = L.StatelessGRU(3, 2)
    >>> h = np.zeros((1, 2), np.float32)
    >>> gru(h, np.ones((1, 3), np.float32)).shape
    (1, 2)
    """

    def forward(self, h, x):
        """Returns the new state from the state ``h`` and the input
        ``x``."""
        r = sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh(self.W(x) + self.U(r * h))
        return linear_interpolate(z, h_bar, h)


class StatefulGRU(GRUBase):
    """Stateful Gated Recurrent Unit function (GRU).

    Keeps the state ``h`` between calls; at the first call (no state) the
    new state is ``z * h_bar`` with ``r``, ``z``, ``h_bar`` computed from
    the input alone.

    Args:
        in_size (int): The input size.
        out_size (int): The state (and output) size.
        init: Initializer of the input weights ``W_r``, ``W_z``, ``W``.
        inner_init: Initializer of the state weights ``U_r``, ``U_z``,
            ``U``.
        bias_init: Initializer of all the biases (default 0).

    Attributes:
        h (~chainer.Variable): The state (None before the first call).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> gru = L.StatefulGRU(3, 2)
    >>> gru(np.ones((4, 3), np.float32)).shape
    (4, 2)
    """

    def __init__(self, in_size, out_size, init=None, inner_init=None,
                 bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        if self.h is not None:
            visitor.visit_variable(self.h)

    def set_state(self, h):
        """Sets the state ``h`` (a Variable)."""
        if not isinstance(h, variable.Variable):
            raise TypeError('{}.set_state: h must be a chainer.Variable, '
                            'got {}'.format(type(self).__name__,
                                            type(h).__name__))
        h.to_device(self.device)
        self.h = h

    def reset_state(self):
        """Forgets the state (``h`` becomes None)."""
        self.h = None

    def forward(self, x):
        """Updates the state with the input ``x`` and returns it."""
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = sigmoid(self.W_r(x) + self.U_r(self.h))
            z += self.U_z(self.h)
            h_bar += self.U(r * self.h)
        z = sigmoid(z)
        h_bar = tanh(h_bar)
        if self.h is None:
            h_new = z * h_bar
        else:
            h_new = linear_interpolate(z, h_bar, self.h)
        self.h = h_new
        return h_new


class GRU(StatefulGRU):
    """Stateful Gated Recurrent Unit function (GRU): the same as
    :class:`StatefulGRU`, whose ``forward`` takes exactly one argument.

    Since Chainer v2 ``GRU`` is stateful; for the stateless form, which
    takes ``(h, x)``, use :class:`StatelessGRU`.

    >>> import numpy as np
    >>> import chainer.links as L
    >>> L.GRU(3, 2)(np.ones((1, 3), np.float32)).shape
    (1, 2)
    """

    def forward(self, *args):
        """Updates the state with the one input ``x`` and returns it."""
        n = len(args)
        if n != 1:
            msg = ('Invalid argument. The length of GRU.forward must be 1. '
                   'But {} is given. '.format(n))
            if n == 2:
                msg += ('In Chainer v2, chainer.links.GRU is changed from '
                        'stateless to stateful. One possibility is you assume '
                        'GRU to be stateless. Use chainer.links.StatelessGRU '
                        'instead.')
            raise ValueError(msg)
        return super().forward(args[0])
