"""Batch normalization: ``F.batch_normalization`` (batch statistics, and
the running statistics updated in place) and ``F.fixed_batch_normalization``.

The standardization ``xhat = (x - mean) / sqrt(var + eps)`` over some axes
and its gradient are shared with layer, group and batch re-normalization:
:class:`BatchNormalizationGrad` computes the first-order gradients on arrays
(fast) and differentiates itself with F ops, so gradients of any order work.
"""

import warnings

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, check_same_dtype, invalid_type)
from chainer.utils import conv_nd
from chainer.utils.array import size_of_shape


def _frontend():
    # imported on the GPU path only: ``import chainer`` never loads it
    from chainer.backends import _cudnn_frontend
    return _cudnn_frontend


def _kwargs(func_name, kwargs, removed=('train',), **defaults):
    """Chainer's handling of ``**kwargs``: removed arguments are rejected
    with a ValueError, unknown ones with a TypeError."""
    for name in removed:
        if name in kwargs:
            raise ValueError('{} argument is not supported anymore. Use '
                             'chainer.using_config'.format(name))
    unknown = [k for k in kwargs if k not in defaults]
    if unknown:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            func_name, ', '.join(repr(k) for k in unknown)))
    defaults.update(kwargs)
    return defaults


def _check_eps(func, eps):
    # eps keeps 1 / sqrt(var + eps) finite where a feature is constant
    if not eps > 0:
        raise ValueError('{}: eps must be positive, got {}'.format(func, eps))


def _interm(x):
    """Statistics of float16 inputs are computed in float32."""
    return x.astype(numpy.float32) if x.dtype == numpy.float16 else x


def _stats(x, axes, eps):
    """Mean and 1/std over ``axes`` (kept as length-1 axes)."""
    xp = backend.get_array_module(x)
    x = _interm(x)
    mean = x.mean(axis=axes, keepdims=True)
    var = xp.square(x - mean).mean(axis=axes, keepdims=True)
    return mean, 1 / xp.sqrt(var + eps), var


# Below this many entries the NumPy formulas run instead of the C loops:
# they round as Chainer's float32 arithmetic does, so the small arrays that
# examples print match Chainer's digits (the C loops accumulate in float64,
# closer to exact but not Chainer's bits; they pay off on large inputs).
_LOOPS_MIN_SIZE = 1 << 16


def _channel_rows(x, axes):
    """``(n, c, s)``, the sizes the C loops see, where they apply: a NumPy
    float32 or float64 ``x`` of at least ``_LOOPS_MIN_SIZE`` entries whose
    statistics run over its first axis and its last ones (``c`` is the size
    of the axes between); None otherwise.
    """
    k = x.ndim - len(axes) + 1
    if conv_nd._loops is None or type(x) is not numpy.ndarray or \
            x.dtype.char not in 'fd' or not x.dtype.isnative or \
            x.size < max(_LOOPS_MIN_SIZE, 1) or \
            axes != (0,) + tuple(range(k, x.ndim)):
        return None
    n, s = x.shape[0], size_of_shape(x.shape[k:])
    return n, x.size // (n * s), s


def _f64(a):
    return numpy.ascontiguousarray(a, numpy.float64).reshape(-1)


def _reduced_axes(func, x_shape, gamma_shape, axis):
    """The axes that statistics run over, checked against gamma."""
    ndim = len(x_shape)
    if axis is None:
        axes = (0,) + tuple(range(1 + len(gamma_shape), ndim))
        # Chainer's messages: by input index, one dimension at a time
        if len(gamma_shape) >= ndim:
            raise invalid_type(
                func, 'in_types[1].ndim == {}'.format(ndim - 1),
                '{} != {}'.format(len(gamma_shape), ndim - 1))
        for i, g in enumerate(gamma_shape):
            if x_shape[i + 1] != g:
                raise invalid_type(
                    func, 'in_types[0].shape[{}] == in_types[1].shape[{}]'
                    .format(i + 1, i), '{} != {}'.format(x_shape[i + 1], g))
        return axes
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(sorted(a % ndim if -ndim <= a < ndim else a for a in axes))
    if any(not 0 <= a < ndim for a in axes) or len(set(axes)) != len(axes):
        raise ValueError('{}: invalid axis {!r} for an input of {} '
                         'dimensions'.format(func, axis, ndim))
    kept = tuple(s for i, s in enumerate(x_shape) if i not in axes)
    if kept != tuple(gamma_shape):
        raise invalid_type(
            func, 'gamma.shape == x.shape without the axes {}'.format(axes),
            '{} != {}'.format(tuple(gamma_shape), kept))
    return axes


def _cudnn(op, x, axes):
    """Whether ``op`` goes to cuDNN: a CuPy x normalized over every axis
    but 1 (cuDNN's spatial batch normalization)."""
    return (type(x) is not numpy.ndarray and x.ndim >= 2 and
            axes == (0,) + tuple(range(2, x.ndim)) and
            _frontend().should_use(op, x.dtype))


def _keep_shape(x_shape, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(x_shape))


def _check_inputs(func, x, gamma, beta):
    check_float(func, x, 'in_types[0]')
    check_float(func, gamma, 'in_types[1]')
    # (with type_check off, as in Chainer, mixed dtypes compute promoted)
    check_same_dtype(func, gamma, beta, ('in_types[1]', 'in_types[2]'))
    if gamma.shape != beta.shape:
        raise invalid_type(func, 'in_types[1].shape == in_types[2].shape',
                           '{} != {}'.format(gamma.shape, beta.shape))


def _project(v, u, axes):
    """``v - mean(v) - u * mean(u * v)`` over ``axes`` (on Variables): the
    gradient of the standardization, up to the 1/std factor."""
    from chainer.functions.math.average import average
    return v - average(v, axes, keepdims=True) - \
        u * average(u * v, axes, keepdims=True)


class BatchNormalizationGrad(FunctionNode):
    """The gradients of ``y = gamma * xhat(x) + beta`` (xhat standardizes
    over ``axes``; gamma broadcasts to x): inputs ``(x, gamma, gy)``,
    outputs ``(gx, ggamma, gbeta)``, gamma and beta in gamma's shape."""

    def __init__(self, axes, eps, mean=None, inv_std=None):
        self.axes = axes
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, gamma, gy = inputs
        if x.size == 0:
            xp = backend.get_array_module(x)
            return x.copy(), xp.zeros_like(gamma), xp.zeros_like(gamma)
        if self.mean is None:
            self.mean, self.inv_std, _ = _stats(x, self.axes, self.eps)
        gx, ggamma, gbeta = (self._fused(x, gamma, gy) or
                             self._formulas(x, gamma, gy))
        return (gx.astype(x.dtype, copy=False),
                ggamma.reshape(gamma.shape).astype(gamma.dtype, copy=False),
                gbeta.reshape(gamma.shape).astype(gamma.dtype, copy=False))

    def _fused(self, x, gamma, gy):
        """The gradients from cuDNN or the C loops, where they apply."""
        if gy.dtype == x.dtype and _cudnn('batchnorm_backward', x, self.axes):
            out = _frontend().batch_normalization_grad(
                x, gamma, self.mean, self.inv_std, gy)
            if out is not None:
                return out
        rows = _channel_rows(x, self.axes)
        if rows is not None and gy.dtype == x.dtype and \
                gamma.shape == _keep_shape(x.shape, self.axes):
            # One pass for the two sums and one for gx, per channel.
            gx = numpy.empty(x.shape, x.dtype)
            ggamma, gbeta = numpy.empty(rows[1]), numpy.empty(rows[1])
            conv_nd._loops.bn_backward(
                gx, numpy.ascontiguousarray(x), numpy.ascontiguousarray(gy),
                *rows, _f64(self.mean), _f64(self.inv_std), _f64(gamma),
                ggamma, gbeta)
            return gx, ggamma, gbeta
        return None

    def _formulas(self, x, gamma, gy):
        """The gradients by array formulas (any backend, dtype, axes)."""
        other = _other_axes(gy.shape, gamma.shape)
        if x.dtype == gamma.dtype == gy.dtype == self.mean.dtype == \
                numpy.float16:
            # all in float16, as Chainer (its promoted dtype), the sums too
            xhat = (x - self.mean) * self.inv_std
            gy_ = gy
            gbeta = gy.sum(axis=other, dtype=gy.dtype, keepdims=True)
            ggamma = (gy * xhat).sum(axis=other, dtype=gy.dtype,
                                     keepdims=True)
        else:
            xhat = (_interm(x) - self.mean) * self.inv_std
            gy_ = _interm(gy)
            gbeta = gy_.sum(axis=other, keepdims=True)
            ggamma = (gy_ * xhat).sum(axis=other, keepdims=True)
        if set(other) == {a for a in self.axes if x.shape[a] != 1}:
            # Batch normalization: Chainer's form (the same rounding),
            # (gamma * inv_std) * (gy - (xhat * ggamma + gbeta) / m).
            inv_m = ggamma.dtype.type(gamma.size / max(x.size, 1))
            gx = (gamma * self.inv_std) * (
                gy_ - (xhat * ggamma + gbeta) * inv_m)
        else:
            # gamma spans other axes than the statistics (layer and group
            # normalization): the general form.
            h = gy_ * gamma
            gx = self.inv_std * (
                h - h.mean(axis=self.axes, keepdims=True) -
                xhat * (h * xhat).mean(axis=self.axes, keepdims=True))
        return gx, ggamma, gbeta

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.average import average
        from chainer.functions.math.sum import sum as _sum
        x, gamma, gy = self.get_retained_inputs()
        ggx, gggamma, ggbeta = grad_outputs
        if gamma.dtype != x.dtype:
            # Mixed precision (e.g. float16 x with float32 gamma): work in
            # x's dtype; the engine casts gamma's gradient back.
            from chainer.functions.array.cast import cast
            gamma = cast(gamma, x.dtype)
            if gggamma is not None:
                gggamma = cast(gggamma, x.dtype)
            if ggbeta is not None:
                ggbeta = cast(ggbeta, x.dtype)
        axes = self.axes
        m = 1
        for a in axes:
            m *= x.shape[a]
        # xhat and 1/std again, as functions of x (for higher orders).
        xc = x - average(x, axes, keepdims=True)
        inv = (average(xc * xc, axes, keepdims=True) + self.eps) ** -0.5
        u = xc * inv
        h = gy * gamma
        g_x = g_gy = g_gamma = None
        terms_gy = []
        terms_x = []
        if ggbeta is not None:
            terms_gy.append(ggbeta)
        if gggamma is not None:
            terms_gy.append(gggamma * u)
            terms_x.append(inv * _project(gggamma * gy, u, axes))
        if ggx is not None:
            p_ggx = _project(ggx, u, axes)
            terms_gy.append(gamma * inv * p_ggx)
            g_gamma = _sum_to(inv * p_ggx * gy, gamma.shape, _sum)
            p_h = _project(h, u, axes)
            a = _sum(ggx * p_h, axes, keepdims=True)
            b = _sum(ggx * u, axes, keepdims=True)
            c = average(h * u, axes, keepdims=True)
            terms_x.append(-(inv * inv) * ((a * u + b * p_h) * (1. / m) +
                                           c * p_ggx))
        if terms_gy:
            g_gy = _add_all(terms_gy)
            if g_gy.shape != gy.shape:  # only ggbeta came
                from chainer.functions.array.broadcast import broadcast_to
                g_gy = broadcast_to(g_gy, gy.shape)
        if terms_x:
            g_x = _add_all(terms_x)
        ret = {0: g_x, 1: g_gamma, 2: g_gy}
        return tuple(ret[i] for i in indexes)


def _other_axes(x_shape, gamma_shape):
    """The axes of x along which gamma (of x's rank) is broadcast."""
    return tuple(i for i, (s, g) in enumerate(zip(x_shape, gamma_shape))
                 if g == 1 and s != 1)


def _sum_to(v, shape, _sum):
    axes = _other_axes(v.shape, shape)
    return _sum(v, axes, keepdims=True) if axes else v


def _add_all(terms):
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


class _AxisNames:
    """Chainer's names for the geometry of a forward pass (exporters read
    them): ``axis`` becomes the tuple of reduced axes, ``key_axis`` the
    axes of gamma, ``expander`` the index that broadcasts gamma to x."""

    @property
    def key_axis(self):
        return tuple(i for i in range(len(self._keep)) if i not in self.axis)

    @property
    def expander(self):
        return tuple(None if i in self.axis else slice(None)
                     for i in range(len(self._keep)))


class BatchNormalization(_AxisNames, FunctionNode):

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None):
        _check_eps('batch_normalization', eps)
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        _check_inputs(self, x, gamma, beta)
        axes = self.axis = _reduced_axes(self, x.shape, gamma.shape,
                                         self.axis)
        self._keep = _keep_shape(x.shape, axes)
        m = x.size // max(gamma.size, 1)
        if m <= 1:
            warnings.warn(
                'A batch with no more than one sample has been given to '
                'F.batch_normalization. F.batch_normalization will always '
                'output a zero tensor for such batches.', UserWarning)
        if x.size == 0:
            self.mean = self.inv_std = self.var = None
            return x.copy(),
        if (self.running_mean is None) == (self.running_var is None) and \
                _cudnn('batchnorm', x, axes):
            # cuDNN updates the running statistics itself (unbiased
            # variance, momentum = 1 - decay)
            out = _frontend().batch_normalization(
                x, gamma, beta, self.eps, self.running_mean,
                self.running_var, self.decay)
            if out is not None:
                y, mean, inv_std = out
                self.mean, self.inv_std = (a.reshape(gamma.shape)
                                           for a in (mean, inv_std))
                self.var = (1 / self.inv_std ** 2 - self.eps).astype(
                    x.dtype)
                return y,
        rows = _channel_rows(x, axes)
        if rows is not None:
            # The statistics and y in three passes over each channel, the
            # channel still in the cache after the first.
            y = numpy.empty(x.shape, x.dtype)
            mean, var = numpy.empty(rows[1]), numpy.empty(rows[1])
            conv_nd._loops.bn_forward(y, numpy.ascontiguousarray(x), *rows,
                                      _f64(gamma), _f64(beta), self.eps,
                                      mean, var)
            inv_std = 1 / numpy.sqrt(var + self.eps)
            mean, inv_std, var = (a.astype(x.dtype).reshape(self._keep)
                                  for a in (mean, inv_std, var))
        elif x.dtype == gamma.dtype == numpy.float16:
            # Chainer takes the statistics in the promoted dtype of x and
            # gamma, float16 here, and NumPy's mean and var round them so
            mean = x.mean(axis=axes, dtype=x.dtype, keepdims=True)
            var = x.var(axis=axes, dtype=x.dtype, keepdims=True)
            xp = backend.get_array_module(x)
            inv_std = xp.reciprocal(xp.sqrt(var + self.eps, dtype=x.dtype))
            y = gamma.reshape(self._keep) * (
                (x - mean) * inv_std) + beta.reshape(self._keep)
        else:
            mean, inv_std, var = _stats(x, axes, self.eps)
            # gamma * ((x - mean) * inv_std) + beta: Chainer's rounding.
            y = gamma.reshape(self._keep) * (
                (_interm(x) - mean) * inv_std) + beta.reshape(self._keep)
        # the statistics in gamma's shape, as Chainer keeps them
        self.mean, self.inv_std, self.var = (
            a.reshape(gamma.shape) for a in (mean, inv_std, var))
        if self.running_mean is not None:
            rm = self.running_mean
            rm *= self.decay
            rm += (1 - self.decay) * mean.reshape(rm.shape)
        if self.running_var is not None:
            # The running variance is the unbiased estimate.
            rv = self.running_var
            rv *= self.decay
            rv += (1 - self.decay) * (m / max(m - 1, 1)) * var.reshape(
                rv.shape)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        keep = self._keep
        gamma_ = reshape(gamma, keep)
        mean = inv_std = None
        if self.mean is not None:
            mean, inv_std = self.mean.reshape(keep), self.inv_std.reshape(keep)
        gx, ggamma, gbeta = BatchNormalizationGrad(
            self.axis, self.eps, mean, inv_std).apply((x, gamma_, gy))
        ret = {0: gx, 1: reshape(ggamma, gamma.shape),
               2: reshape(gbeta, gamma.shape)}
        return tuple(ret[i] for i in indexes)


def batch_normalization(x, gamma, beta, **kwargs):
    """Batch normalization function.

    Normalizes ``x`` with the mean and variance of the batch, over the
    first axis and the axes after those of ``gamma``, then scales and
    shifts it: ``y = gamma * (x - mean) / sqrt(var + eps) + beta``.

    Args:
        x (~chainer.Variable or array): Input, ``(N, C, ...)``.
        gamma (~chainer.Variable or array): Scaling parameter, of shape
            ``x.shape[1:1 + gamma.ndim]`` (or of ``x``'s shape without
            ``axis``).
        beta (~chainer.Variable or array): Shifting parameter (gamma's
            shape).
        eps (float): Added to the variance for stability.
        running_mean (array): Updated in place:
            ``decay * running_mean + (1 - decay) * mean``.
        running_var (array): Updated in place with the unbiased batch
            variance ``var * m / (m - 1)``.
        decay (float): Decay rate of the running statistics.
        axis (int, tuple of int or None): The axes to normalize over
            (by default, as described above).

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[1.], [3.]], np.float32)
    >>> F.batch_normalization(x, np.ones(1, np.float32),
    ...                       np.zeros(1, np.float32)).array.round(3)
    array([[-1.],
           [ 1.]], dtype=float32)
    """
    kw = _kwargs('batch_normalization', kwargs, eps=2e-5, running_mean=None,
                 running_var=None, decay=0.9, axis=None)
    return BatchNormalization(kw['eps'], kw['running_mean'],
                              kw['running_var'], kw['decay'],
                              kw['axis']).apply((x, gamma, beta))[0]


class FixedBatchNormalization(_AxisNames, FunctionNode):

    def __init__(self, eps=2e-5, axis=None):
        _check_eps('fixed_batch_normalization', eps)
        self.eps = eps
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1, 3, 4))
        x, gamma, beta, mean, var = inputs
        _check_inputs(self, x, gamma, beta)
        axes = self.axis = _reduced_axes(self, x.shape, gamma.shape,
                                         self.axis)
        for i, a in enumerate((mean, var), 3):
            check_same_dtype(self, a, gamma,
                             ('in_types[{}]'.format(i), 'in_types[1]'))
            if a.shape != gamma.shape:
                raise invalid_type(
                    self, 'in_types[{}].shape == in_types[1].shape'.format(i),
                    '{} != {}'.format(a.shape, gamma.shape))
        keep = self._keep = _keep_shape(x.shape, axes)
        xp = backend.get_array_module(x)
        # Chainer's arithmetic, so the values match it bit for bit:
        # inv_std = sqrt(1 / (var + eps)) in var's dtype (float16 too, with
        # a float32 x) and y = gamma * ((x - mean) * inv_std) + beta.
        dt = var.dtype.type
        inv_var = dt(1) / (var.reshape(keep) + dt(self.eps))
        inv_std = xp.sqrt(inv_var)
        # kept in gamma's shape, as Chainer does
        self.inv_var = inv_var.reshape(gamma.shape)
        self.inv_std = inv_std.reshape(gamma.shape)
        if _cudnn('batchnorm_inference', x, axes):
            y = _frontend().fixed_batch_normalization(
                x, gamma, beta, mean, var, self.eps)
            if y is not None:
                return y,
        y = gamma.reshape(keep) * (
            (x - mean.reshape(keep)) * inv_std) + beta.reshape(keep)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as _sum
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        if gamma.dtype != x.dtype:
            # Mixed precision: in x's dtype; the engine casts back.
            from chainer.functions.array.cast import cast
            gamma, mean, var = (cast(v, x.dtype) for v in (gamma, mean, var))
        keep, axes, shape = self._keep, self.axis, gamma.shape
        inv = (reshape(var, keep) + self.eps) ** -0.5
        xc = x - reshape(mean, keep)
        g_xhat = gy * reshape(gamma, keep)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g_xhat * inv)
            elif i == 1:
                ret.append(reshape(_sum(gy * xc * inv, axes), shape))
            elif i == 2:
                ret.append(reshape(_sum(gy, axes), shape))
            elif i == 3:
                ret.append(reshape(-_sum(g_xhat * inv, axes), shape))
            else:
                ret.append(reshape(
                    _sum(g_xhat * xc, axes) * -0.5, shape) *
                    (var + self.eps) ** -1.5)
        return tuple(ret)


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5,
                              axis=None):
    """Batch normalization function with fixed statistics.

    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``, with the given
    ``mean`` and ``var`` (e.g. running statistics at test time).

    Args:
        x (~chainer.Variable or array): Input.
        gamma, beta (~chainer.Variable or array): Scale and shift.
        mean, var (~chainer.Variable or array): Statistics (gamma's shape).
        eps (float): Added to the variance for stability.
        axis (int, tuple of int or None): As in :func:`batch_normalization`.

    Returns:
        ~chainer.Variable: The output, of ``x``'s shape and dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[2.]], np.float32)
    >>> one = np.ones(1, np.float32)
    >>> F.fixed_batch_normalization(x, one, 0 * one, one, one, eps=0).array
    array([[1.]], dtype=float32)
    """
    return FixedBatchNormalization(eps, axis).apply(
        (x, gamma, beta, mean, var))[0]
