"""``F.gaussian``: a sample of N(mean, exp(ln_var)) by reparameterization,
so that gradients flow to the mean and the log variance."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type
from chainer.functions.noise.dropout import _parse_kwargs


class Gaussian(FunctionNode):
    """``mean + exp(ln_var / 2) * eps`` with ``eps`` standard normal."""

    def __init__(self, eps=None):
        self.eps = eps

    def forward(self, inputs):
        mean, ln_var = inputs
        check_float(self, mean, 'mean')
        if ln_var.dtype != mean.dtype:
            raise invalid_type(self, 'mean.dtype == ln_var.dtype',
                               '{} != {}'.format(mean.dtype, ln_var.dtype))
        if ln_var.shape != mean.shape:
            raise invalid_type(self, 'mean.shape == ln_var.shape',
                               '{} != {}'.format(mean.shape, ln_var.shape))
        self.retain_inputs((1,))
        xp = backend.get_array_module(mean)
        if self.eps is None:
            self.eps = xp.random.standard_normal(mean.shape).astype(
                mean.dtype, copy=False)
        y = mean + xp.exp(ln_var * 0.5) * self.eps
        return y.astype(mean.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            ln_var, = self.get_retained_inputs()
            ret.append(gy * exp(ln_var * 0.5) * (self.eps * 0.5))
        return tuple(ret)


def gaussian(mean, ln_var, **kwargs):
    """gaussian(mean, ln_var, *, eps=None, return_eps=False)

    Gaussian sampling function.

    It draws a sample of :math:`N(\\mu, \\sigma^2)` as
    :math:`\\mu + \\exp(\\frac{1}{2} \\ln \\sigma^2) \\epsilon` with
    :math:`\\epsilon \\sim N(0, I)` drawn by ``xp.random`` (NumPy's or
    CuPy's global generator), so that it is differentiable in ``mean`` and
    ``ln_var``. It draws in test mode too.

    Args:
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): The mean
            :math:`\\mu`, of a floating point dtype.
        ln_var (:class:`~chainer.Variable` or :ref:`ndarray`): The log
            variance :math:`\\ln \\sigma^2`, of ``mean``'s shape and dtype.
        eps (:ref:`ndarray` or None): The noise :math:`\\epsilon` to use
            instead of a random one.
        return_eps (bool): Also return the noise used.

    Returns:
        ~chainer.Variable or tuple: The sample, or ``(sample, eps)`` with
        ``return_eps``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> mean = np.zeros((2,), np.float32)
    >>> F.gaussian(mean, mean, eps=np.array([1., -2.], np.float32)).array
    array([ 1., -2.], dtype=float32)
    """
    eps, return_eps = _parse_kwargs('gaussian', kwargs, eps=None,
                                    return_eps=False)
    func = Gaussian(eps)
    y, = func.apply((mean, ln_var))
    if return_eps:
        return y, func.eps
    return y
