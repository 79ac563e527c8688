"""``L.LayerNormalization``: layer normalization."""

import numpy

import chainer.functions as F
from chainer import link
from chainer.links.normalization.group_normalization import _scale_shift


class LayerNormalization(link.Link):
    """Layer normalization layer on outputs of linear functions.

    Normalizes each row of a 2-D input ``(N, size)`` with
    :func:`~chainer.functions.layer_normalization`, then scales by
    ``gamma`` and shifts by ``beta`` (both ``(size,)``, made on the first
    forward when ``size`` is None).

    Args:
        size (int): Number of units (None: from the first input).
        eps (float): Added to the variance for stability.
        initial_gamma: Initializer of ``gamma`` (default 1).
        initial_beta: Initializer of ``beta`` (default 0).

    >>> import numpy as np
    >>> ln = LayerNormalization(2)
    >>> ln(np.array([[1., 3.]], np.float32)).array.round(3)
    array([[-1.,  1.]], dtype=float32)
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma, self.beta = _scale_shift(initial_gamma, initial_beta,
                                                 default_dtype=False)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes the rows of ``x`` ``(N, size)``."""
        if self.gamma.array is None:
            # the size of a row (also for an empty batch)
            self._initialize_params(int(numpy.prod(x.shape[1:])))
        return F.layer_normalization(x, self.gamma, self.beta, self.eps)
