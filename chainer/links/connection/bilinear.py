"""``L.Bilinear``: the bilinear (tensor) layer."""

import numpy

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.functions._errors import AssertionValueError


class Bilinear(link.Link):
    """Bilinear layer that performs tensor multiplication.

    ``y[n, k] = sum_ij e1[n, i] e2[n, j] W[i, j, k] + (e1 V1)[n, k] +
    (e2 V2)[n, k] + b[k]`` (:func:`~chainer.functions.bilinear`); with
    ``nobias`` only the first term.

    Args:
        left_size (int): Size of ``e1``.
        right_size (int): Size of ``e2``.
        out_size (int): Output size.
        nobias (bool): Without ``V1``, ``V2`` and ``b``.
        initialW: Initializer of ``W`` ``(left_size, right_size,
            out_size)`` (default LeCunNormal).
        initial_bias: A tuple ``(V1, V2, b)`` of initializers (shapes
            ``(left_size, out_size)``, ``(right_size, out_size)``,
            ``(out_size,)``); by default LeCunNormal, LeCunNormal and 0.
            Ignored with ``nobias``.

    >>> import numpy as np
    >>> l = Bilinear(2, 3, 4)
    >>> l(np.ones((5, 2), np.float32), np.ones((5, 3), np.float32)).shape
    (5, 4)
    """

    def __init__(self, left_size, right_size, out_size, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        get = initializers._get_initializer
        _check_shape('initialW', initialW, (left_size, right_size, out_size))
        with self.init_scope():
            self.W = variable.Parameter(
                get(initialW), (left_size, right_size, out_size))
            if not nobias:
                if initial_bias is None:
                    V1, V2, b = None, None, 0
                else:
                    V1, V2, b = initial_bias
                _check_shape('initial_bias[0] (V1)', V1,
                             (left_size, out_size))
                _check_shape('initial_bias[1] (V2)', V2,
                             (right_size, out_size))
                _check_shape('initial_bias[2] (b)', b, (out_size,))
                self.V1 = variable.Parameter(get(V1), (left_size, out_size))
                self.V2 = variable.Parameter(get(V2), (right_size, out_size))
                self.b = variable.Parameter(get(b), out_size)

    def forward(self, e1, e2):
        """Applies the layer to ``e1`` ``(N, left_size)`` and ``e2``
        ``(N, right_size)``."""
        if self.nobias:
            return F.bilinear(e1, e2, self.W)
        return F.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self):
        """Fills the gradients with zeros (deprecated: use
        :meth:`~chainer.Link.cleargrads`)."""
        self.zerograds()


def _check_shape(name, value, shape):
    # An array given as an initial value must have the parameter's shape
    # (Chainer asserts it).
    if hasattr(value, 'shape') and not numpy.isscalar(value) and \
            tuple(value.shape) != shape:
        raise AssertionValueError(
            'Bilinear: {} must have shape {}, got {}'.format(
                name, shape, tuple(value.shape)))
