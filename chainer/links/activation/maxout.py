"""``L.Maxout``: the fully-connected maxout layer."""

import chainer
import chainer.functions as F
from chainer import backend
from chainer import link
from chainer.links.connection.linear import Linear


def _is_array(x):
    return isinstance(x, backend._get_array_types())


class Maxout(link.Chain):
    """Fully-connected maxout layer.

    A :class:`~chainer.links.Linear` child ``linear`` maps the input to
    ``out_size * pool_size`` units, and :func:`~chainer.functions.maxout`
    takes the maximum over each run of ``pool_size`` consecutive units.

    Args:
        in_size (int or None): Input size (None: lazy).
        out_size (int): Output size.
        pool_size (int): Number of units pooled into one output.
        initialW: Initializer of the weight; an array must have the shape
            ``(in_size, out_size, pool_size)`` and is reshaped (in C order)
            to the linear weight's ``(out_size * pool_size, in_size)``.
        initial_bias: Initializer of the bias (an array of shape
            ``(out_size, pool_size)``); None: no bias.

    >>> import numpy as np
    >>> m = Maxout(3, 2, 4)
    >>> m(np.ones((5, 3), np.float32)).shape
    (5, 2)
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None,
                 initial_bias=0):
        super().__init__()
        linear_out_size = out_size * pool_size
        if _is_array(initialW):
            if initialW.ndim != 3:
                raise ValueError('initialW.ndim should be 3')
            initialW = initialW.reshape(linear_out_size, in_size)
        elif _is_plain_callable(initialW):
            initialW = _Reshaped(initialW, (out_size, pool_size, in_size))
        if _is_array(initial_bias):
            if initial_bias.ndim != 2:
                raise ValueError('initial_bias.ndim should be 2')
            initial_bias = initial_bias.reshape(linear_out_size)
        elif _is_plain_callable(initial_bias):
            initial_bias = _Reshaped(initial_bias, (out_size, pool_size))
        with self.init_scope():
            self.linear = Linear(in_size, linear_out_size,
                                 nobias=initial_bias is None,
                                 initialW=initialW,
                                 initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        """The maxout of ``x`` ``(N, ...)``; returns ``(N, out_size)``."""
        return F.maxout(self.linear(x), self.pool_size)


def _is_plain_callable(initializer):
    # A function (not an Initializer object) fills the parameter seen in
    # Maxout's own shape, as Chainer hands it over.
    return callable(initializer) and \
        not isinstance(initializer, chainer.Initializer)


class _Reshaped(chainer.Initializer):
    """Calls ``initializer`` on the array viewed in ``shape``."""

    def __init__(self, initializer, shape):
        super().__init__(getattr(initializer, 'dtype', None))
        self.initializer = initializer
        self.shape = shape

    def __call__(self, array):
        view = array.reshape(self.shape)  # a view: the array is contiguous
        self.initializer(view)
