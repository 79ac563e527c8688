"""Decorrelated batch normalization (Huang et al., 2018): ZCA whitening of
the channels, in groups.

The channels of ``x`` (``(N, C, ...)``) are split into ``groups`` groups of
``C // groups``; each group is centered and multiplied by the inverse
square root of its covariance, ``P = U diag(1 / sqrt(w)) U^T`` (``w``,
``U``: the eigen decomposition of ``cov + eps * I``), computed over the
``m = N * prod(spatial)`` samples.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_floats,
                                       invalid_type, names_bad_arguments)
from chainer.functions.normalization.batch_normalization import _kwargs


def _check(func, x, groups):
    check_float(func, x)
    if x.ndim < 2:
        raise invalid_type(func, 'x.ndim >= 2', '{} < 2'.format(x.ndim))
    if x.shape[1] % groups:
        raise invalid_type(func, 'x.shape[1] % {} == 0'.format(groups),
                           '{} != 0'.format(x.shape[1] % groups))


def _to_groups(x, groups):
    """``(N, C, ...)`` to ``(groups, C // groups, m)``, and its inverse."""
    axes = (1, 0) + tuple(range(2, x.ndim))
    return x.transpose(axes).reshape(groups, x.shape[1] // groups, -1)


def _from_groups(y, shape):
    axes = (1, 0) + tuple(range(2, len(shape)))
    return y.reshape((shape[1], shape[0]) + shape[2:]).transpose(axes)


def _interm(x):
    # numpy.linalg has no float16.
    return x.astype(numpy.float32) if x.dtype == numpy.float16 else x


def _check_groups(groups):
    if not isinstance(groups, (int, numpy.integer)) or groups < 1:
        raise TypeError('groups must be a positive int, got {!r}'.format(
            groups))


class DecorrelatedBatchNormalization(FunctionNode):

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None,
                 decay=0.9):
        self.groups = groups
        self.eps = eps
        self.running_mean = mean
        self.running_projection = projection
        self.decay = decay

    def forward(self, inputs):
        x, = inputs
        _check(self, x, self.groups)
        xp = backend.get_array_module(x)
        self._shape = x.shape
        xg = _interm(_to_groups(x, self.groups))
        d, m = xg.shape[1:]
        mean = xg.mean(axis=2, keepdims=True)
        xc = xg - mean
        cov = xp.matmul(xc, xc.swapaxes(1, 2)) / m + \
            self.eps * xp.eye(d, dtype=xc.dtype)
        w, u = xp.linalg.eigh(cov)
        proj = xp.matmul(u / xp.sqrt(w)[:, None, :], u.swapaxes(1, 2))
        self.xc, self.w, self.u, self.proj = xc, w, u, proj
        if self.running_mean is not None:
            rm = self.running_mean
            rm *= self.decay
            rm += (1 - self.decay) * mean.reshape(rm.shape)
        if self.running_projection is not None:
            rp = self.running_projection
            rp *= self.decay
            rp += (1 - self.decay) * (m / max(m - 1, 1)) * proj
        y = _from_groups(xp.matmul(proj, xc), x.shape)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return DecorrelatedBatchNormalizationGrad(self).apply(grad_outputs)


class DecorrelatedBatchNormalizationGrad(FunctionNode):
    """The gradient of ZCA whitening, on arrays (not differentiable)."""

    def __init__(self, fwd):
        self.fwd = fwd

    def forward(self, inputs):
        gy, = inputs
        fwd = self.fwd
        xp = backend.get_array_module(gy)
        xc, w, u, proj = fwd.xc, fwd.w, fwd.u, fwd.proj
        m = xc.shape[2]
        gyg = _interm(_to_groups(gy, fwd.groups))
        g_proj = xp.matmul(gyg, xc.swapaxes(1, 2))
        g_xc = xp.matmul(proj, gyg)  # proj is symmetric
        # Derivative of w ** -1/2 as a matrix function (divided
        # differences; the diagonal holds the derivative -w ** -3/2 / 2).
        s = xp.sqrt(w)
        k = -1 / (s[:, :, None] * s[:, None, :] *
                  (s[:, :, None] + s[:, None, :]))
        ut = u.swapaxes(1, 2)
        g_cov = xp.matmul(xp.matmul(u, k * xp.matmul(
            xp.matmul(ut, g_proj), u)), ut)
        g_xc += xp.matmul(g_cov + g_cov.swapaxes(1, 2), xc) / m
        g_xc -= g_xc.mean(axis=2, keepdims=True)
        return _from_groups(g_xc, fwd._shape).astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'Double backward is not implemented for decorrelated batch '
            'normalization.')


@names_bad_arguments
def decorrelated_batch_normalization(x, **kwargs):
    """Decorrelated batch normalization function.

    Whitens the channels of ``x`` (in groups) with the batch statistics:
    ``y = P (x - mean)`` per group, ``P = (cov + eps * I) ** -1/2``.

    Args:
        x (~chainer.Variable or array): Input, ``(N, C, ...)``.
        groups (int): The number of channel groups (``C`` must be a
            multiple of it).
        eps (float): Added to the covariance diagonal.
        running_mean (array): ``(groups, C // groups)``, updated in place.
        running_projection (array): ``(groups, C // groups, C // groups)``,
            updated in place with ``P * m / (m - 1)``.
        decay (float): Decay rate of the running statistics.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype. Its
        gradient cannot be differentiated again.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.random.RandomState(0).randn(8, 2).astype(np.float32)
    >>> y = F.decorrelated_batch_normalization(x, groups=1).array
    >>> np.allclose(y.T @ y / 8, np.eye(2), atol=1e-3)
    True
    """
    kw = _kwargs('decorrelated_batch_normalization', kwargs, (), groups=16,
                 eps=2e-5, running_mean=None, running_projection=None,
                 decay=0.9)
    _check_groups(kw['groups'])
    return DecorrelatedBatchNormalization(
        kw['groups'], kw['eps'], kw['running_mean'],
        kw['running_projection'], kw['decay']).apply((x,))[0]


class FixedDecorrelatedBatchNormalization(FunctionNode):

    def __init__(self, groups):
        self.groups = groups

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, mean, proj = inputs
        check_floats(self, inputs, ('x', 'mean', 'projection'))
        _check(self, x, self.groups)
        d = x.shape[1] // self.groups
        if mean.shape != (self.groups, d):
            raise invalid_type(self, 'mean.shape == {}'.format(
                (self.groups, d)), '{}'.format(mean.shape))
        if proj.shape != (self.groups, d, d):
            raise invalid_type(self, 'projection.shape == {}'.format(
                (self.groups, d, d)), '{}'.format(proj.shape))
        xp = backend.get_array_module(x)
        xc = _to_groups(x, self.groups) - mean[:, :, None]
        y = _from_groups(xp.matmul(proj, xc), x.shape)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.array.transpose import transpose
        from chainer.functions.math.matmul import matmul
        from chainer.functions.math.sum import sum as _sum
        x, mean, proj = self.get_retained_inputs()
        gy, = grad_outputs
        g = self.groups
        axes = (1, 0) + tuple(range(2, x.ndim))
        shape_t = (x.shape[1], x.shape[0]) + x.shape[2:]

        def to_groups(v):
            return reshape(transpose(v, axes), (g, x.shape[1] // g, -1))

        gyg = to_groups(gy)
        ret = []
        g_xc = None
        if 0 in indexes or 1 in indexes:
            g_xc = matmul(proj, gyg, transa=True)
        for i in indexes:
            if i == 0:
                ret.append(transpose(reshape(g_xc, shape_t), axes))
            elif i == 1:
                ret.append(-_sum(g_xc, axis=2))
            else:
                xc = to_groups(x) - reshape(mean, mean.shape + (1,))
                ret.append(matmul(gyg, xc, transb=True))
        return tuple(ret)


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization function with fixed statistics.

    ``y = projection (x - mean)`` per channel group (see
    :func:`decorrelated_batch_normalization`).

    Args:
        x (~chainer.Variable or array): Input, ``(N, C, ...)``.
        mean (~chainer.Variable or array): ``(groups, C // groups)``.
        projection (~chainer.Variable or array):
            ``(groups, C // groups, C // groups)``.
        groups (int): The number of channel groups.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[1., 2.]], np.float32)
    >>> F.fixed_decorrelated_batch_normalization(
    ...     x, np.zeros((1, 2), np.float32),
    ...     np.array([[[0., 1.], [1., 0.]]], np.float32), groups=1).array
    array([[2., 1.]], dtype=float32)
    """
    _check_groups(groups)
    return FixedDecorrelatedBatchNormalization(groups).apply(
        (x, mean, projection))[0]
