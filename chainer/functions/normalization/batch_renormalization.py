"""Batch re-normalization (Ioffe, 2017): ``F.batch_renormalization`` and
``F.fixed_batch_renormalization``.

The batch-standardized input is corrected towards the running statistics
by ``r = clip(std / running_std, 1/rmax, rmax)`` and
``d = clip((mean - running_mean) / running_std, -dmax, dmax)``, which are
treated as constants in the gradient.
"""

import warnings

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.normalization.batch_normalization import (
    BatchNormalizationGrad, _check_inputs, _interm, _keep_shape,
    _other_axes, _reduced_axes, _stats, fixed_batch_normalization)
from chainer.functions._errors import chainer_text, names_bad_arguments


class BatchRenormalizationFunction(FunctionNode):

    def __init__(self, eps, mean, var, decay, rmax, dmax,
                 update_statistics=False):
        self.eps = eps
        for name, a in (('running_mean', mean), ('running_var', var)):
            if a is not None and a.dtype.kind != 'f':
                raise TypeError(
                    'batch_renormalization: {} must be a float array, but '
                    'got dtype {}'.format(name, a.dtype))
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.rmax = rmax
        self.dmax = dmax
        self.update_statistics = update_statistics

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        _check_inputs(self, x, gamma, beta)
        xp = backend.get_array_module(x)
        axes = self._axes = _reduced_axes(self, x.shape, gamma.shape, None)
        keep = self._keep = _keep_shape(x.shape, axes)
        mean, inv_std, var = _stats(x, axes, self.eps)
        self.mean, self.inv_std = mean, inv_std
        self.std = None
        # Chainer's arithmetic (its last bits): x normalized by dividing
        # by std, then scaled by r and shifted by d
        std = self.std = xp.sqrt(var + self.eps)
        rm = _interm(self.running_mean).reshape(keep)
        running_std = xp.sqrt(_interm(self.running_var).reshape(keep) +
                              self.eps)
        r = xp.clip(std / running_std, 1 / self.rmax, self.rmax)
        d = xp.clip((mean - rm) / running_std, -self.dmax, self.dmax)
        self.r, self.d = r, d
        y = ((_interm(x) - mean) / std * r + d) * gamma.reshape(keep) \
            + beta.reshape(keep)
        if self.update_statistics:
            m = x.size // max(gamma.size, 1)
            rm, rv = self.running_mean, self.running_var
            rm *= self.decay
            rm += (1 - self.decay) * mean.reshape(rm.shape)
            rv *= self.decay
            rv += (1 - self.decay) * (m / max(m - 1, 1)) * var.reshape(
                rv.shape)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as _sum
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        dtype = gamma.dtype
        r = self.r.astype(dtype, copy=False)
        d = self.d.astype(dtype, copy=False)
        # y = (gamma * r) * xhat + (gamma * d + beta): the gradient of a
        # batch normalization with the scale gamma * r.
        gamma_r = reshape(gamma, self._keep) * r
        gx, g_gamma_r, gbeta = _RenormGrad(
            self._axes, self.eps, self.mean, self.inv_std, self.std).apply(
                (x, gamma_r, gy))
        ret = {0: gx,
               1: reshape(g_gamma_r * r + gbeta * d, gamma.shape),
               2: reshape(_sum(gy, self._axes), gamma.shape)}
        return tuple(ret[i] for i in indexes)


class _RenormGrad(BatchNormalizationGrad):
    """The gradients of a batch normalization scaled by ``gamma * r``, x's
    in Chainer's batch renormalization arithmetic (its last bits): xhat
    and the scale divided by std, the correction divided by the count."""

    def __init__(self, axes, eps, mean, inv_std, std):
        super().__init__(axes, eps, mean, inv_std)
        self.std = std

    def _formulas(self, x, gamma, gy):
        other = _other_axes(gy.shape, gamma.shape)
        if self.std is None or x.dtype == numpy.float16 or \
                set(other) != {a for a in self.axes if x.shape[a] != 1}:
            return super()._formulas(x, gamma, gy)
        xhat = (x - self.mean) / self.std
        gbeta = gy.sum(axis=other, keepdims=True)
        ggamma = (gy * xhat).sum(axis=other, keepdims=True)
        m = x.size // max(gamma.size, 1)
        gx = gamma / self.std * (gy - (xhat * ggamma + gbeta) / m)
        return gx, ggamma, gbeta


@names_bad_arguments
def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5,
                          running_mean=None, running_var=None, decay=0.9,
                          update_statistics=False):
    """Batch renormalization function.

    Like :func:`batch_normalization`, but the standardized input is
    corrected with ``r`` and ``d`` computed from the running statistics:
    ``y = gamma * ((x - mean) / std * r + d) + beta``, where
    ``std = sqrt(var + eps)``, ``r = clip(std / running_std, 1 / rmax,
    rmax)`` and ``d = clip((mean - running_mean) / running_std, -dmax,
    dmax)`` (``running_std = sqrt(running_var + eps)``); ``r`` and ``d``
    get no gradient.

    Args:
        x (~chainer.Variable or array): Input, ``(N, C, ...)``.
        gamma, beta (~chainer.Variable or array): Scale and shift, of shape
            ``x.shape[1:1 + gamma.ndim]``.
        rmax (float): Upper bound of ``r`` (its lower bound is 1/rmax).
        dmax (float): Bound of ``|d|``.
        eps (float): Added to the variances.
        running_mean, running_var (array): Running statistics (required);
            updated in place only when ``update_statistics`` is True.
        decay (float): Decay rate of the running statistics.
        update_statistics (bool): Update the running statistics.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[1.], [3.]], np.float32)
    >>> one = np.ones(1, np.float32)
    >>> F.batch_renormalization(x, one, 0 * one, 2., 0.,
    ...     running_mean=0 * one, running_var=one).array.round(3)
    array([[-1.],
           [ 1.]], dtype=float32)
    """
    if running_mean is None:  # (Chainer's words, as they are)
        raise chainer_text(TypeError('running_mean is required'))
    if running_var is None:
        raise chainer_text(TypeError('running_var is required'))
    return BatchRenormalizationFunction(
        eps, running_mean, running_var, decay, rmax, dmax,
        update_statistics).apply((x, gamma, beta))[0]


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Batch renormalization with fixed statistics (deprecated, as in
    Chainer: use :func:`fixed_batch_normalization`).

    The same as :func:`fixed_batch_normalization` (at test time batch
    renormalization uses the running statistics, like batch normalization);
    a call warns with a DeprecationWarning.

    Args:
        x (~chainer.Variable or array): Input.
        gamma, beta (~chainer.Variable or array): Scale and shift.
        mean, var (~chainer.Variable or array): Statistics (gamma's shape).
        eps (float): Added to the variance.

    Returns:
        ~chainer.Variable: ``gamma * (x - mean) / sqrt(var + eps) + beta``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> one = np.ones(1, np.float32)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter('ignore', DeprecationWarning)
    ...     F.fixed_batch_renormalization(np.array([[3.]], np.float32), one,
    ...         0 * one, one, 3 * one, eps=1.).array
    array([[1.]], dtype=float32)
    """
    warnings.warn('fixed_batch_renormalization is deprecated. '
                  'Use fixed_batch_normalization instead.',
                  DeprecationWarning)
    return fixed_batch_normalization(x, gamma, beta, mean, var, eps)

