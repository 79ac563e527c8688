"""Fully-connected LSTM layers: the stateful :class:`LSTM` and the
:class:`StatelessLSTM`.

Both hold ``upward`` (a Linear from the input to the ``4 * out_size`` gate
pre-activations, with bias) and ``lateral`` (a Linear from the hidden state,
without bias). The gate channels are interleaved the way :func:`F.lstm`
reads them (``(batch, out_size, 4)`` holds ``a, i, f, o``), so parameters
saved by Chainer load unchanged.
"""

import numpy

import chainer
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.functions.array.concat import concat
from chainer.functions.array.split_axis import split_axis
from chainer.functions.rnn.lstm import lstm
from chainer.links.connection.linear import Linear


def _fill(initializer, shape, dtype, xp):
    array = xp.empty(shape, dtype=dtype)
    initializer(array)
    return array


class LSTMBase(link.Chain):
    """The parameters shared by :class:`LSTM` and :class:`StatelessLSTM`.

    Each of the four row blocks of ``upward.W`` and ``lateral.W`` (one per
    gate) is drawn separately from its initializer; the biases of the cell
    input and the input and output gates come from ``bias_init`` (default
    0), that of the forget gate from ``forget_bias_init`` (default 1).
    """

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = bias_init
        self.forget_bias_init = forget_bias_init
        with self.init_scope():
            # zero placeholders: the real values come from
            # _initialize_params, once the input size is known
            self.upward = Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = Linear(out_size, 4 * out_size, initialW=0,
                                  nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self):
        n = self.state_size
        xp = self.xp
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        bias_init = initializers._get_initializer(
            0 if self.bias_init is None else self.bias_init)
        forget_init = initializers._get_initializer(
            1 if self.forget_bias_init is None else self.forget_bias_init)
        # Gate by gate, lateral slice then upward slice: Chainer's order of
        # random draws, so seeded weights match it.
        for k in range(4):
            for W, init in ((self.lateral.W, lateral_init),
                            (self.upward.W, upward_init)):
                w = W.array
                w[k * n:(k + 1) * n] = _fill(init, (n,) + w.shape[1:],
                                             w.dtype, xp)
        b = self.upward.b.array
        gates = b.reshape(n, 4)  # a, i, f, o interleaved
        for k in range(4):
            init = forget_init if k == 2 else bias_init
            gates[:, k] = _fill(init, (n,), b.dtype, xp)

    def _lazy_init(self, x):
        if self.upward.W.array is None:
            in_size = x.size // x.shape[0] if x.shape[0] else \
                int(numpy.prod(x.shape[1:]))
            with chainer.using_device(self.device):
                self.upward.W.initialize((4 * self.state_size, in_size))
            self._initialize_params()


class StatelessLSTM(LSTMBase):
    """Stateless LSTM layer: the state is passed in and returned.

    Args:
        in_size (int or None): The input size; None (or giving only one
            size) infers it at the first call.
        out_size (int): The size of the state and the output.
        lateral_init: Initializer of ``lateral.W`` (default LeCunNormal).
        upward_init: Initializer of ``upward.W`` (default LeCunNormal).
        bias_init: Initializer of the biases of ``a``, ``i`` and ``o``
            (default 0).
        forget_bias_init: Initializer of the forget gate's bias (default 1).

    Attributes:
        upward (~chainer.links.Linear): Input to the gates.
        lateral (~chainer.links.Linear): Hidden state to the gates.

    >>> import numpy as np
    >>> import chainer.links as L
    >>> lstm = L.StatelessLSTM(3, 2)
    >>> c, h = lstm(None, None, np.ones((1, 3), np.float32))
    >>> c.shape, h.shape
    ((1, 2), (1, 2))
    """

    def forward(self, c, h, x):
        """Computes ``(c_new, h_new)`` from the cell state ``c`` and the
        output ``h`` of the previous step (either may be None: zeros) and
        the input ``x``."""
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            xp = self.xp
            with chainer.using_device(self.device):
                c = variable.Variable(
                    xp.zeros((x.shape[0], self.state_size), dtype=x.dtype))
        return lstm(c, lstm_in)


class LSTM(LSTMBase):
    """Fully-connected LSTM layer, keeping its cell state ``c`` and output
    ``h`` between calls.

    Given the input ``x_t``, it computes the gates from
    ``upward(x_t) + lateral(h_{t-1})`` and runs :func:`F.lstm`, returning
    the new ``h_t``. The batch may shrink from one call to the next
    (sequences that ended): the rows of ``x`` update the first rows of the
    state, the remaining rows are kept.

    Args:
        in_size (int or None): The input size; None (or giving only one
            size, ``LSTM(out_size)``) infers it at the first call.
        out_size (int): The size of the state and the output.
        lateral_init: Initializer of ``lateral.W`` (default LeCunNormal).
        upward_init: Initializer of ``upward.W`` (default LeCunNormal).
        bias_init: Initializer of the biases of ``a``, ``i`` and ``o``
            (default 0).
        forget_bias_init: Initializer of the forget gate's bias (default 1).

    Attributes:
        upward (~chainer.links.Linear): Input to the gates.
        lateral (~chainer.links.Linear): Hidden state to the gates.
        c (~chainer.Variable): The cell state (None before the first call).
        h (~chainer.Variable): The output state (None before the first
            call).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> lstm = L.LSTM(3, 2)
    >>> y = lstm(np.ones((4, 3), np.float32))
    >>> y.shape, lstm.c.shape
    ((4, 2), (4, 2))
    >>> lstm.reset_state()
    >>> lstm.h is None
    True
    """

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        super().__init__(in_size, out_size, lateral_init, upward_init,
                         bias_init, forget_bias_init)
        self.reset_state()

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        if self.c is not None:
            visitor.visit_variable(self.c)
        if self.h is not None:
            visitor.visit_variable(self.h)

    def set_state(self, c, h):
        """Sets the cell state ``c`` and the output ``h`` (Variables)."""
        _check_state('LSTM.set_state', c=c, h=h)
        c.to_device(self.device)
        h.to_device(self.device)
        self.c, self.h = c, h

    def reset_state(self):
        """Forgets the state (``c`` and ``h`` become None)."""
        self.c = self.h = None

    def forward(self, x):
        """Updates the state with ``x`` and returns the new output ``h``."""
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if batch == 0:
                h_rest = self.h
            elif h_size < batch:
                raise TypeError(
                    'The batch size of x must be equal to or less than the '
                    'size of the previous state h.')
            elif h_size > batch:
                h_update, h_rest = split_axis(self.h, [batch], axis=0)
                lstm_in += self.lateral(h_update)
            else:
                lstm_in += self.lateral(self.h)
        if self.c is None:
            xp = self.xp
            with chainer.using_device(self.device):
                self.c = variable.Variable(
                    xp.zeros((batch, self.state_size), dtype=x.dtype))
        # F.lstm keeps the rows of c beyond the batch of lstm_in
        self.c, y = lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif len(y) == 0:
            self.h = h_rest
        else:
            self.h = concat([y, h_rest], axis=0)
        return y


def _check_state(func, **states):
    # Chainer asserts: a bare AssertionError
    for name, value in states.items():
        if not isinstance(value, variable.Variable):
            raise AssertionError()


def _split_gates(lstm_in):
    """The interleaved gates ``a, i, f, o`` of ``(B, 4 * n)`` gate inputs,
    each ``(B, n)``."""
    from chainer.functions.array.reshape import reshape
    batch, n = lstm_in.shape[0], lstm_in.shape[1] // 4
    gates = split_axis(reshape(lstm_in, (batch, n, 4)), 4, axis=2)
    return [reshape(g, (batch, n)) for g in gates]
