"""``L.Linear``: the fully-connected layer."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import utils
from chainer import variable


class Linear(link.Link):
    """Linear layer (a.k.a. fully-connected layer): ``y = x W^T + b``.

    ``W`` has the shape ``(out_size, in_size)``, ``b`` the shape
    ``(out_size,)``.  With ``in_size`` None (or a single size argument,
    ``Linear(10)`` meaning ``out_size=10``), ``W`` is made on the first
    forward from the size of the input's non-batch axes.

    Args:
        in_size (int or None): Input size (None: lazy).
        out_size (int): Output size.
        nobias (bool): Without the bias ``b``.
        initialW: Initializer, array or scalar of ``W`` (default:
            :class:`~chainer.initializers.LeCunNormal`).
        initial_bias: Initializer, array or scalar of ``b`` (default 0).

    Attributes:
        W (~chainer.Parameter): Weight, ``(out_size, in_size)``.
        b (~chainer.Parameter): Bias, ``(out_size,)`` (None with
            ``nobias``).

    >>> import numpy as np
    >>> l = Linear(3, 2, initialW=1., initial_bias=0.5)
    >>> l(np.ones((1, 3), np.float32)).array
    array([[3.5, 3.5]], dtype=float32)
    """

    def __init__(self, in_size, out_size=None, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
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

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """Makes a Linear link with the arrays ``W`` (and ``b``) as its
        initial parameters."""
        # Variables (e.g. another link's parameters) give their arrays,
        # which the initializers copy.
        W = variable.as_array(W)
        b = None if b is None else variable.as_array(b)
        out_size, in_size = W.shape
        if b is not None and out_size != b.size:
            raise ValueError('`out_size` does not match the size of `b`')
        return cls(in_size, out_size, nobias, initialW=W, initial_bias=b)

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    def forward(self, x, n_batch_axes=1):
        """Applies the layer; the first ``n_batch_axes`` axes of ``x`` are
        batch axes, the rest are flattened into the input size."""
        if self.W.array is None:
            self._initialize_params(
                utils.size_of_shape(x.shape[n_batch_axes:]))
        return F.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)
