"""``L.Highway``: the highway module."""

import chainer.functions as F
from chainer import link
from chainer.functions.activation.relu import relu
from chainer.links.connection.linear import Linear


class Highway(link.Chain):
    """Highway module.

    ``y = activate(plain(x)) * T + x * (1 - T)`` with the transform gate
    ``T = sigmoid(transform(x))``; ``plain`` and ``transform`` are square
    :class:`~chainer.links.Linear` children.

    Args:
        in_out_size (int): Input and output size.
        nobias (bool): Without the biases.
        activate: Activation of the plain path.
        init_Wh, init_bh: Initializers of the plain path's ``W`` and ``b``.
        init_Wt, init_bt: Initializers of the transform gate's ``W`` and
            ``b`` (the gate bias defaults to -1, so the module starts
            close to the identity).

    >>> import numpy as np
    >>> Highway(3)(np.zeros((2, 3), np.float32)).shape
    (2, 3)
    """

    def __init__(self, in_out_size, nobias=False, activate=relu,
                 init_Wh=None, init_Wt=None, init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = Linear(in_out_size, in_out_size, nobias=nobias,
                                initialW=init_Wh, initial_bias=init_bh)
            self.transform = Linear(in_out_size, in_out_size, nobias=nobias,
                                    initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x):
        """Applies the highway module to ``x`` ``(N, in_out_size)``."""
        t = F.sigmoid(self.transform(x))
        return self.activate(self.plain(x)) * t + x * (1 - t)
