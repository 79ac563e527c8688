"""``L.SimplifiedDropconnect``: a linear layer with dropconnect."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import utils
from chainer import variable


class SimplifiedDropconnect(link.Link):
    """Fully-connected layer with simplified dropconnect regularization.

    Like :class:`~chainer.links.Linear`, but in training the weights are
    dropped at random with probability ``ratio``
    (:func:`~chainer.functions.simplified_dropconnect`).  ``W`` has the
    shape ``(out_size, in_size)`` (lazy when ``in_size`` is None).

    Args:
        in_size (int or None): Input size (None: lazy).
        out_size (int): Output size.
        ratio (float): Dropconnect ratio.
        nobias (bool): Without the bias.
        initialW: Initializer of ``W`` (default LeCunNormal).
        initial_bias: Initializer of ``b`` (default 0).

    >>> import numpy as np
    >>> l = SimplifiedDropconnect(3, 2, initialW=1.)
    >>> l(np.ones((1, 3), np.float32), train=False).array
    array([[3., 3.]], dtype=float32)
    """

    def __init__(self, in_size, out_size, ratio=.5, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = variable.Parameter(
                    initializers._get_initializer(initial_bias), out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Applies the layer; ``train`` (this argument, not
        ``chainer.config.train``) turns the dropping on, ``mask`` gives the
        mask explicitly."""
        if self.W.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return F.simplified_dropconnect(x, self.W, self.b, self.ratio, train,
                                        mask, use_batchwise_mask)
