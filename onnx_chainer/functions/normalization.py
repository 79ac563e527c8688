"""Converters of the normalization functions.

Where ONNX has no op of the same statistics (batch statistics in training
mode, group and layer normalization before their ops), the normalization is
written out: ``(x - mean) / sqrt(var + eps) * gamma + beta``.
"""

import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._base import converts, unsupported


def _axes(p):
    ndim = len(p.in_shapes[0])
    axis = p.func.axis
    axis = (axis,) if isinstance(axis, int) else axis
    return tuple(sorted(a % ndim for a in axis))


def _kept(g, p, name, index, axes):
    # A statistic or parameter shaped as x without ``axes``, made to
    # broadcast against x.
    x_shape = p.in_shapes[0]
    shape = tuple(1 if i in axes else d for i, d in enumerate(x_shape))
    if p.in_shapes[index] == shape:
        return name
    return g.reshape(name, shape)


def _normalize(g, p, x, axes, eps, out=None):
    """``(x - mean) / sqrt(var + eps)`` with batch statistics over
    ``axes`` (the biased variance, as Chainer's)."""
    d = g.emit('Sub', [x, g.reduce('ReduceMean', x, axes, True)])
    var = g.reduce('ReduceMean', g.emit('Mul', [d, d]), axes, True)
    std = g.emit('Sqrt', [g.emit('Add', [var, g.scalar(eps, p.dtype)])])
    return g.emit('Div', [d, std], out)


def _scale_shift(g, p, y, axes, out=True):
    gamma = _kept(g, p, p.input_names[1], 1, axes)
    beta = _kept(g, p, p.input_names[2], 2, axes)
    return g.emit('Add', [g.emit('Mul', [y, gamma]), beta], out)


def _channel_axes(p):
    ndim = len(p.in_shapes[0])
    return (0,) + tuple(range(2, ndim))


@converts('FixedBatchNormalization',
          inputs=('x', 'gamma', 'beta', 'avg_mean', 'avg_var'))
def fixed_batch_normalization(p, g):
    axes = _axes(p)
    eps = float(p.func.eps)
    if axes == _channel_axes(p) and len(p.in_shapes[1]) == 1:
        return g.out('BatchNormalization', p.input_names, epsilon=eps)
    x, _, _, mean, var = p.input_names
    d = g.emit('Sub', [x, _kept(g, p, mean, 3, axes)])
    var = g.emit('Add', [_kept(g, p, var, 4, axes), g.scalar(eps, p.dtype)])
    y = g.emit('Div', [d, g.emit('Sqrt', [var])])
    _scale_shift(g, p, y, axes)


@converts('BatchNormalization', inputs=('x', 'gamma', 'beta'))
def batch_normalization(p, g):
    # Training mode: the statistics of the batch itself.
    axes = _axes(p)
    y = _normalize(g, p, p.x, axes, float(p.func.eps))
    _scale_shift(g, p, y, axes)


@converts('LayerNormalization', inputs=('x', 'gamma', 'beta'))
def layer_normalization(p, g):
    eps = float(p.func.eps)
    if g.opset >= 17:
        return g.out('LayerNormalization', p.input_names, axis=1,
                     epsilon=eps)
    axes = tuple(range(1, len(p.in_shapes[0])))
    y = _normalize(g, p, p.x, axes, eps)
    gamma, beta = p.input_names[1:]
    g.out('Add', [g.emit('Mul', [y, gamma]), beta])


@converts('GroupNormalization', inputs=('x', 'gamma', 'beta'))
def group_normalization(p, g):
    shape = p.in_shapes[0]
    n, groups = shape[0], int(p.func.groups)
    x = g.reshape(p.x, (n, groups, -1))
    y = g.reshape(_normalize(g, p, x, (2,), float(p.func.eps)), shape)
    _scale_shift(g, p, y, _channel_axes(p))


@converts('LocalResponseNormalization')
def local_response_normalization(p, g):
    # Chainer: x / (k + alpha * sum)^beta; ONNX divides alpha by the size.
    f = p.func
    g.out('LRN', [p.x], size=int(f.n), bias=float(f.k),
          alpha=float(f.alpha) * f.n, beta=float(f.beta))


@converts('NormalizeL2')
def normalize_l2(p, g):
    # x / (||x|| + eps)
    x = p.x
    axes = _axes(p)
    norm = g.emit('Sqrt', [g.reduce('ReduceSum', g.emit('Mul', [x, x]),
                                    axes, True)])
    g.out('Div', [x, g.emit('Add', [norm, g.scalar(p.func.eps, p.dtype)])])


@converts('BatchRenormalizationFunction', inputs=('x', 'gamma', 'beta'))
def batch_renormalization(p, g):
    """The batch statistics corrected by ``r`` and ``d`` from the running
    ones (constants of the graph)."""
    f = p.func
    if f.update_statistics:
        raise unsupported(
            p, 'the call updated the running statistics in place '
            '(update_statistics=True, as in training mode), so the values '
            'it corrected with are gone; export in test mode (train=False), '
            'where BatchRenormalization normalizes with fixed statistics')
    axes = tuple(sorted(f._axes))
    x_shape = p.in_shapes[0]
    keep = tuple(1 if i in axes else d for i, d in enumerate(x_shape))
    dtype = numpy.result_type(p.dtype, numpy.float32)  # as Chainer computes
    running_std = numpy.sqrt(
        numpy.asarray(onnx_helper.to_numpy(f.running_var), dtype).reshape(
            keep) + dtype.type(f.eps))
    running_mean = numpy.asarray(onnx_helper.to_numpy(f.running_mean),
                                 dtype).reshape(keep)
    x = p.x if dtype == p.dtype else g.cast(p.x, dtype)
    mean = g.reduce('ReduceMean', x, axes, True)
    d = g.emit('Sub', [x, mean])
    var = g.reduce('ReduceMean', g.emit('Mul', [d, d]), axes, True)
    std = g.emit('Sqrt', [g.emit('Add', [var, g.scalar(f.eps, dtype)])])
    r = g.clip(g.emit('Div', [std, g.const(running_std)]), 1 / f.rmax,
               f.rmax, dtype)
    shift = g.clip(g.emit('Div', [g.emit('Sub', [mean, g.const(running_mean)]),
                                  g.const(running_std)]),
                   -f.dmax, f.dmax, dtype)
    y = g.emit('Add', [g.emit('Mul', [g.emit('Div', [d, std]), r]), shift])
    if dtype != p.dtype:
        y = g.cast(y, p.dtype)
    _scale_shift(g, p, y, axes)
