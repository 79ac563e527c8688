"""Minimal Gated Units: :class:`StatelessMGU` and :class:`StatefulMGU`.

With ``f = sigmoid(W_f [h, x])`` and ``h_bar = tanh(W_h [f * h, x])``
(``[a, b]``: concatenation along the feature axis), the new state is
``f * h_bar + (1 - f) * h``.
"""

import chainer
from chainer import link
from chainer import variable
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.concat import concat
from chainer.functions.math.linear_interpolate import linear_interpolate
from chainer.links.connection.linear import Linear


class MGUBase(link.Chain):
    """The two Linear links ``W_f`` and ``W_h`` of an MGU, both from
    ``n_inputs + n_units`` features to ``n_units``."""

    def __init__(self, n_inputs, n_units):
        super().__init__()
        with self.init_scope():
            self.W_f = Linear(n_inputs + n_units, n_units)
            self.W_h = Linear(n_inputs + n_units, n_units)

    def _call_mgu(self, h, x):
        f = sigmoid(self.W_f(concat([h, x])))
        h_bar = tanh(self.W_h(concat([f * h, x])))
        return linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """Stateless Minimal Gated Unit.

    Args:
        n_inputs (int): The input size.
        n_units (int): The state size.

    >>> import numpy as np
    >>> import chainer.links as L
    >>> mgu = L.StatelessMGU(3, 2)
    >>> mgu(np.zeros((1, 2), np.float32), np.ones((1, 3), np.float32)).shape
    (1, 2)
    """

    def forward(self, h, x):
        """Returns the new state from the state ``h`` and the input
        ``x``."""
        return self._call_mgu(h, x)


class StatefulMGU(MGUBase):
    """Stateful Minimal Gated Unit: keeps the state ``h`` between calls
    (zeros of ``chainer.config.dtype`` before the first one).

    Args:
        in_size (int): The input size.
        out_size (int): The state size.

    >>> import numpy as np
    >>> import chainer.links as L
    >>> mgu = L.StatefulMGU(3, 2)
    >>> mgu(np.ones((4, 3), np.float32)).shape
    (4, 2)
    """

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self._state_size = out_size
        self.reset_state()

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        if self.h is not None:
            visitor.visit_variable(self.h)

    def set_state(self, h):
        """Sets the state ``h`` (a Variable)."""
        if not isinstance(h, variable.Variable):
            raise TypeError('StatefulMGU.set_state: h must be a '
                            'chainer.Variable, got {}'.format(
                                type(h).__name__))
        h.to_device(self.device)
        self.h = h

    def reset_state(self):
        """Forgets the state (``h`` becomes None)."""
        self.h = None

    def forward(self, x):
        """Updates the state with the input ``x`` and returns it."""
        if self.h is None:
            xp = self.xp
            with chainer.using_device(self.device):
                h = variable.Variable(xp.zeros(
                    (x.shape[0], self._state_size), dtype=chainer.get_dtype()))
        else:
            h = self.h
        self.h = self._call_mgu(h, x)
        return self.h
