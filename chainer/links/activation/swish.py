"""``L.Swish``: the Swish activation as a link."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable


class Swish(link.Link):
    """Swish activation function as a link: ``x * sigmoid(beta * x)`` with
    a learned ``beta`` (:func:`~chainer.functions.swish`).

    Args:
        beta_shape (tuple of ints or None): Shape of ``beta`` (None: the
            input's shape without the batch axis, on the first forward).
        beta_init (float): Initial value of ``beta``.

    >>> import numpy as np
    >>> Swish((1,))(np.zeros((2, 1), np.float32)).array
    array([[0.],
           [0.]], dtype=float32)
    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            self.beta = variable.Parameter(
                initializers._get_initializer(beta_init))
            if beta_shape is not None:
                self.beta.initialize(beta_shape)

    def forward(self, x):
        """Applies Swish to ``x``."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return F.swish(x, self.beta)
