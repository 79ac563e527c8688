"""``L.Scale``: broadcasted multiplication by a (learnable) scale."""

import chainer.functions as F
from chainer import link
from chainer.links.connection.bias import _check_argc
from chainer import variable
from chainer.links.connection.bias import Bias


class Scale(link.Chain):
    """Broadcasted elementwise product with learnable parameters.

    Computes ``F.scale(x, W, axis)`` (then adds a bias with
    ``bias_term``).  With ``W_shape`` given, ``W`` is a parameter of that
    shape (initialized to 1) and ``forward`` takes ``x`` alone; otherwise
    ``forward(x, W)`` takes the scale as its second argument.

    Args:
        axis (int): The first axis of ``x`` the scale is aligned with.
        W_shape (tuple of ints): Shape of the learnable scale ``W`` (None:
            no parameter).
        bias_term (bool): Add a learnable bias (a :class:`Bias` child
            ``bias``) after scaling.
        bias_shape (tuple of ints): Shape of the bias when ``W_shape`` is
            None (otherwise the bias has ``W_shape``).

    >>> import numpy as np
    >>> Scale(W_shape=(2,))(np.full((1, 2), 3, np.float32)).array
    array([[3., 3.]], dtype=float32)
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False,
                 bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = variable.Parameter(1, W_shape)
            if bias_term:
                shape = W_shape if W_shape is not None else bias_shape
                if shape is None:
                    raise ValueError('bias_shape should be given if W is not '
                                     'learnt parameter and bias_term is '
                                     'True.')
                self.bias = Bias(axis, shape)

    def forward(self, *xs):
        """``forward(x)`` with the learned ``W``, else ``forward(x, W)``."""
        learnt = hasattr(self, 'W')
        _check_argc('Scale', xs, learnt, 'W')
        if learnt:
            x, = xs
            W = self.W
        else:
            x, W = xs
        z = F.scale(x, W, self.axis)
        if hasattr(self, 'bias'):
            return self.bias(z)
        return z
