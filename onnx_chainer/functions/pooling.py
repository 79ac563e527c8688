"""Converters of the pooling functions."""

import warnings

import numpy

from onnx_chainer import onnx_helper
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


@converts('ROIAverageAlign2D', 'ROIMaxAlign2D', since=10,
          inputs=('x', 'rois', 'roi_indices'))
def roi_align_2d(p, g):
    f = p.func
    mode = 'max' if p.key == 'ROIMaxAlign2D' else 'avg'
    if mode == 'max':
        # onnxruntime's 'max' takes the largest of the weighted corners of
        # each sample, not of the bilinear samples themselves.
        raise unsupported(p, "RoiAlign's mode 'max' is not the maximum of "
                          'the bilinear samples that roi_max_align_2d '
                          'takes')
    ratio = f.sampling_ratio or (0, 0)
    if ratio[0] != ratio[1]:
        raise unsupported(p, 'RoiAlign has one sampling_ratio for both '
                          'axes, not {}'.format(ratio))
    x, rois, indices = p.input_names
    # Chainer's RoIs are (y_min, x_min, y_max, x_max), ONNX's (x1, y1, x2,
    # y2); Chainer samples without the half-pixel shift.
    rois = g.emit('Gather', [rois, g.ints([1, 0, 3, 2])], axis=1)
    attrs = {}
    if g.opset >= 16:
        attrs['coordinate_transformation_mode'] = 'output_half_pixel'
    g.out('RoiAlign', [x, rois, g.cast(indices, numpy.int64)], mode=mode,
          output_height=f.outsize[0], output_width=f.outsize[1],
          sampling_ratio=int(ratio[0]),
          spatial_scale=float(f.spatial_scale), **attrs)


@converts('Upsampling2D', since=9)
def upsampling_2d(p, g):
    """Each input element goes to the output position its window index
    says: a MaxUnpool when no two share one and none falls in the padding,
    a summing ScatterElements (opset 16) otherwise."""
    f = p.func
    n, c, h, w = p.in_shapes[0]
    oh, ow = f.outsize
    kh, kw = f.ksize
    k = numpy.asarray(onnx_helper.to_numpy(f.indexes), numpy.int64)
    oy = numpy.arange(h)[:, None] * f.stride[0] - f.pad[0] + k // kw
    ox = numpy.arange(w)[None, :] * f.stride[1] - f.pad[1] + k % kw
    inside = (0 <= oy) & (oy < oh) & (0 <= ox) & (ox < ow)
    plane = (numpy.arange(n)[:, None] * c + numpy.arange(c)[None, :])
    flat = (plane[:, :, None, None] * oh + oy) * ow + ox
    out_shape = (n, c, oh, ow)
    # onnxruntime checks output_shape against the size the kernel, strides
    # and pads give; pads at the ends (less than the kernel) bring it down.
    ends = [max(0, (d - 1) * s + k_ - o) for d, s, k_, o in
            zip((h, w), f.stride, f.ksize, (oh, ow))]
    if inside.all() and len(numpy.unique(flat)) == flat.size and \
            all(e < k_ for e, k_ in zip(ends, f.ksize)):
        return g.out('MaxUnpool', [p.x, g.const(flat), g.ints(out_shape)],
                     kernel_shape=[kh, kw], strides=list(f.stride),
                     pads=[0, 0] + ends)
    if g.opset < 16:
        raise unsupported(p, 'MaxUnpool cannot place these indexes (windows '
                          'that overlap or reach into the padding, whose '
                          "elements add up): that needs ScatterElements' "
                          'reduction (opset 16)')
    keep = numpy.flatnonzero(inside.ravel())
    x = g.reshape(p.x, (-1,))
    if len(keep) < inside.size:
        x = g.emit('Gather', [x, g.const(keep)], axis=0)
    zeros = g.const(numpy.zeros(n * c * oh * ow, p.dtype))
    y = g.emit('ScatterElements', [zeros, g.const(flat.ravel()[keep]), x],
               axis=0, reduction='add')
    g.reshape(y, out_shape, out=True)
