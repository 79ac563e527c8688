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
    ratio = f.sampling_ratio or (0, 0)
    if mode == 'max' or ratio[0] != ratio[1]:
        # onnxruntime's RoiAlign 'max' takes the largest of the weighted
        # corners of each sample, not of the bilinear samples themselves.
        return _roi_align_written_out(p, g, mode)
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


def _roi_align_written_out(p, g, mode):
    """RoI align from Gather, GatherElements and arithmetic, as Chainer
    computes it (the sample coordinates and weights in float64), for a
    fixed number of samples per bin: the samples of each bin are laid out
    on axes 3 and 5 of ``(R, C, oh, gh, ow, gw)`` and reduced."""
    f = p.func
    if f.sampling_ratio is None:
        raise unsupported(p, 'RoiAlign cannot take the maximum of the '
                          'samples, and written out the number of samples '
                          'per bin must not depend on the RoIs: give '
                          'sampling_ratio')
    if g.opset < 11:
        raise unsupported(p, 'the RoI align written out needs '
                          'GatherElements (opset 11)')
    x, rois, indices = p.input_names
    n, c, h, w = p.in_shapes[0]
    n_rois = p.in_shapes[1][0]
    (oh, ow), (gh, gw) = f.outsize, f.sampling_ratio
    acc = numpy.float64 if p.dtype == numpy.float64 else numpy.float32
    f64 = numpy.float64
    r = g.emit('Mul', [g.cast(rois, f64), g.scalar(f.spatial_scale, f64)])
    ys, xs, ye, xe = g.split(r, [1, 1, 1, 1], 1)
    one = g.scalar(1, f64)

    def axis(start, end, n_out, n_in, size):
        # The sample coordinates (R, n_out * n_in), bin-major, and their
        # bilinear corners, weights and whether they are in the map.
        length = g.emit('Max', [g.emit('Sub', [end, start]), one])
        step = g.emit('Div', [length, g.scalar(n_out, f64)])
        k = numpy.repeat(numpy.arange(n_out, dtype=f64), n_in)[None]
        i = numpy.tile(numpy.arange(n_in, dtype=f64) + .5, n_out)[None]
        pos = g.emit('Add', [
            g.emit('Add', [start, g.emit('Mul', [g.const(k), step])]),
            g.emit('Div', [g.emit('Mul', [g.const(i), step]),
                           g.scalar(n_in, f64)])])
        inside = g.emit('And', [
            g.emit('Not', [g.emit('Less', [pos, g.scalar(-1, f64)])]),
            g.emit('Not', [g.emit('Greater', [pos, g.scalar(size, f64)])])])
        pos = g.emit('Max', [pos, g.scalar(0, f64)])
        low = g.emit('Floor', [pos])
        last = g.scalar(size - 1, f64)
        edge = g.emit('Not', [g.emit('Less', [low, last])])
        low = g.emit('Where', [edge, last, low])
        high = g.emit('Where', [edge, last, g.emit('Add', [low, one])])
        frac = g.emit('Sub', [g.emit('Where', [edge, low, pos]), low])
        return ((g.cast(low, numpy.int64), g.emit('Sub', [one, frac])),
                (g.cast(high, numpy.int64), frac), inside)

    *y_corners, y_in = axis(ys, ye, oh, gh, h)
    *x_corners, x_in = axis(xs, xe, ow, gw, w)
    py, px = oh * gh, ow * gw
    valid = g.emit('And', [g.unsqueeze(y_in, [2]), g.unsqueeze(x_in, [1])])
    valid_f = g.cast(valid, f64)
    # (R, C, H*W): the feature map of each RoI's image
    planes = g.emit('Gather', [g.reshape(x, (n, c, h * w)),
                               g.cast(indices, numpy.int64)], axis=0)
    if p.dtype != acc:
        planes = g.cast(planes, acc)
    v = None
    for yi, wy in y_corners:
        for xi, wx in x_corners:
            sp = g.emit('Add', [
                g.emit('Mul', [g.unsqueeze(yi, [2]), g.scalar(w, numpy.int64)]),
                g.unsqueeze(xi, [1])])
            sp = g.emit('Expand', [g.reshape(sp, (n_rois, 1, py * px)),
                                   g.ints((n_rois, c, py * px))])
            wt = g.emit('Mul', [g.emit('Mul', [g.unsqueeze(wy, [2]),
                                               g.unsqueeze(wx, [1])]),
                                valid_f])
            wt = g.cast(g.reshape(wt, (n_rois, 1, py * px)), acc)
            t = g.emit('Mul', [g.emit('GatherElements', [planes, sp],
                                      axis=2), wt])
            v = t if v is None else g.emit('Add', [v, t])
    v = g.reshape(v, (n_rois, c, oh, gh, ow, gw))
    if mode == 'max':
        # (a bin without a sample inside the map stays at -inf, as Chainer)
        valid = g.reshape(valid, (n_rois, 1, oh, gh, ow, gw))
        v = g.emit('Where', [valid, v, g.scalar(-numpy.inf, acc)])
        y = g.reduce('ReduceMax', v, (3, 5), False)
    else:
        y = g.emit('Div', [g.reduce('ReduceSum', v, (3, 5), False),
                           g.scalar(gh * gw, acc)])
    if p.dtype != acc:
        y = g.cast(y, p.dtype)
    g.out('Identity', [y])


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
