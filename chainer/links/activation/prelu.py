"""``L.PReLU``: the parametric ReLU as a link."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable


class PReLU(link.Link):
    """Parametric ReLU function as a link: ``max(x, W x)``-like with a
    learned slope ``W`` for the negative part
    (:func:`~chainer.functions.prelu`).

    Args:
        shape (tuple of ints): Shape of ``W`` (matched to the input's axes
            from axis 1; ``()`` shares one slope).
        init (float): Initial slope.

    >>> import numpy as np
    >>> PReLU()(np.array([-2., 2.], np.float32)).array
    array([-0.5,  2. ], dtype=float32)
    """

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(init),
                                        shape)

    def forward(self, x):
        """Applies the parametric ReLU to ``x``."""
        return F.prelu(x, self.W)
