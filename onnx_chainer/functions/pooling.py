"""Converters of the pooling functions."""

import warnings

import numpy

from onnx_chainer.functions._base import converts, unsupported
from onnx_chainer.functions.connection import (transposed_window_pads,
                                               window_pads)


@converts('MaxPoolingND', 'MaxPooling2D')
def max_pooling(p, g):
    f = p.func
    if getattr(f, 'return_indices', False):
        raise unsupported(p, 'return_indices')
    # Padding (with cover_all, the extra end padding too) is -inf to Chainer
    # and ignored by MaxPool: the same.
    pads = window_pads(p.in_shapes[0][2:], f.ksize, f.stride, f.pad,
                       (1,) * len(f.ksize), f.cover_all)
    if any(q >= k for q, k in zip(pads, list(f.ksize) * 2)):
        raise unsupported(p, 'padding as large as the window')
    g.out('MaxPool', [p.x], kernel_shape=list(f.ksize),
          strides=list(f.stride), pads=pads)


@converts('AveragePooling2D', 'AveragePoolingND')
def average_pooling(p, g):
    f = p.func
    if getattr(f, 'cover_all', False):
        raise unsupported(p, 'cover_all')
    # pad_value 0 counts the padding in the mean; None leaves it out.
    include = int(getattr(f, 'pad_value', 0) is not None)
    g.out('AveragePool', [p.x], kernel_shape=list(f.ksize),
          strides=list(f.stride), pads=list(f.pad) * 2,
          count_include_pad=include)


@converts('Unpooling2D', 'UnpoolingND')
def unpooling(p, g):
    # Unpooling spreads each value over its window and sums where windows
    # overlap: a transposed convolution of a kernel of ones per channel.
    f = p.func
    shape = p.in_shapes[0]
    channels, ndim = shape[1], len(shape) - 2
    pads, extra = transposed_window_pads(
        shape[2:], f.outs, f.ksize, f.stride, f.pad, (1,) * ndim)
    w = numpy.ones((channels, 1) + tuple(f.ksize), p.dtype)
    attrs = {'output_padding': extra} if any(extra) else {}
    g.out('ConvTranspose', [p.x, g.const(w)], kernel_shape=list(f.ksize),
          strides=list(f.stride), pads=pads, group=channels, **attrs)


@converts('ROIPooling2D', inputs=('x', 'rois'))
def roi_pooling_2d(p, g):
    warnings.warn(
        'ONNX export: MaxRoiPool rounds the scaled RoI corners half away '
        'from zero and Chainer half to even, so outputs can differ where a '
        'corner falls on .5', UserWarning)
    f = p.func
    g.out('MaxRoiPool', p.input_names, pooled_shape=list(f.outsize),
          spatial_scale=float(f.spatial_scale))
