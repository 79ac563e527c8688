"""``F.rrelu``: leaky ReLU whose slopes are drawn at random in training."""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_float, invalid_type,
                                       names_bad_arguments)


def _slopes(x, lower, upper):
    """Random slopes in [lower, upper) in training, their mean otherwise."""
    xp = backend.get_array_module(x)
    if not chainer.config.train:
        return xp.full(x.shape, (lower + upper) / 2, dtype=x.dtype)
    return xp.random.uniform(lower, upper, x.shape).astype(x.dtype,
                                                           copy=False)


class RReLU(FunctionNode):
    """Randomized Leaky ReLU with slopes ``r`` (drawn from ``[lower,
    upper)`` by forward when not given)."""

    is_elementwise = True

    def __init__(self, lower=1. / 8, upper=1. / 3, r=None):
        self.lower = lower
        self.upper = upper
        self.r = r

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        if self.r is None:
            self.r = _slopes(x, self.lower, self.upper)
        r = self.r
        if r.dtype != x.dtype:
            raise invalid_type(self, 'r.dtype == x.dtype',
                               '{} != {}'.format(r.dtype, x.dtype))
        if r.shape != x.shape:
            raise invalid_type(self, 'r.shape == x.shape',
                               '{} != {}'.format(r.shape, x.shape))
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        return xp.where(x >= 0, x, x * r),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        xp = backend.get_array_module(x)
        return grad_outputs[0] * xp.where(x >= 0, x.dtype.type(1), self.r),


@names_bad_arguments
def rrelu(x, l=1. / 8, u=1. / 3, **kwargs):  # NOQA: E741 (Chainer's name)
    """rrelu(x, l=1. / 8, u=1. / 3, *, r=None, return_r=False)

    Randomized Leaky Rectified Linear Unit function.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x \\ge 0 \\\\
        r x & {\\rm if}~ x < 0,
        \\end{array} \\right.

    In training mode (``chainer.config.train``) each slope :math:`r` is
    drawn from the uniform distribution on :math:`[l, u)` with
    ``xp.random`` (unless ``r`` is given); in test mode every slope is
    :math:`(l + u) / 2` (and ``r`` is ignored).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        l (float): The lower bound of the slopes, in ``[0, 1)``.
        u (float): The upper bound of the slopes, in ``[0, 1)``, above ``l``.
        r (:ref:`ndarray` or None): The slopes to use (``x``'s shape and
            dtype), in training mode.
        return_r (bool): Also return the slopes used.

    Returns:
        ~chainer.Variable or tuple: The output, or ``(output, r)`` with
        ``return_r``.

    >>> import numpy as np
    >>> import chainer
    >>> import chainer.functions as F
    >>> with chainer.using_config('train', False):
    ...     F.rrelu(np.array([-1., 2.], np.float32), l=0.2, u=0.4).array
    array([-0.3,  2. ], dtype=float32)
    """
    from chainer.functions.noise.dropout import _parse_kwargs
    r, return_r = _parse_kwargs('rrelu', kwargs, r=None, return_r=False)
    if not 0.0 <= l < 1.0:
        raise chainer_text(ValueError('lower must be in the range [0, 1)'))
    if not 0.0 <= u < 1.0:
        raise chainer_text(ValueError('upper must be in the range [0, 1)'))
    if not l < u:
        raise chainer_text(ValueError('lower must be less than upper'))
    if r is None or not chainer.config.train:
        r = _slopes(x, l, u)
    y, = RReLU(l, u, r).apply((x,))
    if return_r:
        return y, r
    return y
