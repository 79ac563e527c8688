"""``L.GroupNormalization``: group normalization."""

import numpy

import chainer
import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable


def _scale_shift(initial_gamma, initial_beta, default_dtype=True):
    """The ``gamma`` (default 1) and ``beta`` (default 0) Parameters,
    uninitialized; with ``default_dtype`` in the default dtype (float32
    under mixed16) whatever the initializers' own, as Chainer makes those
    of group normalization."""
    if initial_gamma is None:
        initial_gamma = 1
    if initial_beta is None:
        initial_beta = 0
    dtype = chainer.get_dtype(None, map_mixed16=numpy.float32)
    params = []
    for initial in (initial_gamma, initial_beta):
        initializer = initializers._get_initializer(initial)
        if default_dtype:
            initializer.dtype = dtype
        params.append(variable.Parameter(initializer))
    return tuple(params)


class GroupNormalization(link.Link):
    """Group normalization layer on outputs of convolution functions.

    Normalizes each sample over groups of channels (and the spatial axes)
    with :func:`~chainer.functions.group_normalization`, then scales by
    ``gamma`` and shifts by ``beta`` (both of shape ``(size,)``, made on
    the first forward when ``size`` is None).

    Args:
        groups (int): Number of channel groups.
        size (int): Number of channels (None: from the first input).
        eps (float): Added to the variance for stability.
        initial_gamma: Initializer of ``gamma`` (default 1).
        initial_beta: Initializer of ``beta`` (default 0).

    >>> import numpy as np
    >>> gn = GroupNormalization(2, 4)
    >>> gn(np.arange(8, dtype=np.float32).reshape(1, 4, 2)).shape
    (1, 4, 2)
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        self.groups = groups
        self.eps = eps
        with self.init_scope():
            self.gamma, self.beta = _scale_shift(initial_gamma, initial_beta)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes ``x`` ``(N, size, ...)``."""
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError('GroupNormalization: the input must have '
                                 'a channel axis (ndim >= 2), got ndim '
                                 '{}'.format(x.ndim))
            self._initialize_params(x.shape[1])
        return F.group_normalization(x, self.groups, self.gamma, self.beta,
                                     self.eps)
