"""Shared machinery of the RoI poolings and aligns.

Every RoI op reads, for each output element ``y[r, c, i, j]``, a weighted
sum of elements of ``x[roi_indices[r], c]``.  An op builds this as a *plan*:
a flat base index per ``(r, c)`` and a list of terms ``(sp, w)`` (spatial
flat index ``iy * W + ix`` and weight, broadcastable to ``(R, C, oh, ow)``),
so that ``y = sum_t w_t * x.ravel()[base + sp_t]``.  The average ops plan
all their samples; the max ops plan the sample that won (fixed after the
forward, as max pooling's argmax is).  The gradient is the adjoint of the
plan (a scatter-add) and its gradient the plan again, so the RoI ops can be
differentiated twice in ``x`` (Chainer's cannot; ``rois`` and
``roi_indices`` get no gradient in either).

Loops run over the kernel offsets or the samples of a bin (their largest
count over the RoIs), never over RoIs or pixels.
"""

import numbers

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_same_dtype, invalid_type


# --- argument checks -------------------------------------------------------

def parse_outsize(outsize):
    pair = tuple(outsize) if isinstance(outsize, (tuple, list)) else \
        (outsize, outsize)
    if len(pair) != 2:
        raise ValueError('outsize must be an integer or a pair of integers, '
                         'got {!r}'.format(outsize))
    for i, o in enumerate(pair):
        if not isinstance(o, numbers.Integral) or o < 1:
            raise TypeError('outsize[{}] must be positive integer: {}, '
                            '{}'.format(i, type(o), o))
    return int(pair[0]), int(pair[1])


def parse_spatial_scale(spatial_scale):
    if not isinstance(spatial_scale, numbers.Real) or not spatial_scale > 0:
        raise TypeError('spatial_scale must be a positive float number: {}, '
                        '{}'.format(type(spatial_scale), spatial_scale))
    return float(spatial_scale)


def parse_sampling_ratio(sampling_ratio):
    if sampling_ratio is None:
        return None
    pair = tuple(sampling_ratio) if isinstance(
        sampling_ratio, (tuple, list)) else (sampling_ratio, sampling_ratio)
    # an entry of None is chosen per RoI, as a whole None is (Chainer)
    if len(pair) != 2 or not all(
            s is None or isinstance(s, numbers.Integral) and s >= 1
            for s in pair):
        raise TypeError('sampling_ratio must be integer >= 1 or a pair of '
                        'it: {}'.format(pair))
    return tuple(None if s is None else int(s) for s in pair)


def check_inputs(func, x, rois, roi_indices, roi_width=4):
    if x.dtype.kind != 'f':
        raise invalid_type(func, 'x.dtype.kind == f',
                           '{} != f'.format(x.dtype.kind))
    if x.ndim != 4:
        raise invalid_type(func, 'x.ndim == 4', '{} != 4'.format(x.ndim))
    check_same_dtype(func, rois, x, ('rois', 'x'))
    if rois.ndim != 2 or rois.shape[1] != roi_width:
        raise invalid_type(func, 'rois.shape == (R, {})'.format(roi_width),
                           'rois.shape = {}'.format(rois.shape))
    if roi_indices is None:
        return
    if roi_indices.dtype != numpy.int32:
        raise invalid_type(func, 'roi_indices.dtype == int32',
                           '{} != int32'.format(roi_indices.dtype))
    if roi_indices.ndim != 1 or len(roi_indices) != len(rois):
        raise invalid_type(func, 'roi_indices.shape == (len(rois),)',
                           'roi_indices.shape = {}, rois.shape = {}'.format(
                               roi_indices.shape, rois.shape))
    if len(roi_indices) and (int(roi_indices.min()) < 0 or
                             int(roi_indices.max()) >= len(x)):
        raise IndexError('{}: roi_indices must be in [0, {}), got values in '
                         '[{}, {}]'.format(func.label, len(x),
                                           int(roi_indices.min()),
                                           int(roi_indices.max())))


# --- plans -----------------------------------------------------------------

def base_index(xp, x_shape, roi_indices):
    """Flat index of ``x[roi_indices[r], c, 0, 0]``, shaped ``(R, C, 1, 1)``.
    """
    _, C, H, W = x_shape
    b = roi_indices.astype(numpy.int64)[:, None] * C + xp.arange(C)
    return (b * (H * W))[:, :, None, None]


def _acc_dtype(dtype):
    return numpy.float32 if dtype == numpy.float16 else dtype


def apply_plan(x, plan, outsize, cast=True):
    """``y = sum_t w_t * x.ravel()[base + sp_t]`` (float32 sums for
    float16, cast back unless ``cast`` is False)."""
    xp = backend.get_array_module(x)
    base, terms = plan
    xf = x.ravel()
    y = xp.zeros(base.shape[:2] + outsize, _acc_dtype(x.dtype))
    for sp, w in terms:
        y += xf[base + sp] * w
    return y.astype(x.dtype, copy=False) if cast else y


def adjoint_plan(gy, plan, x_shape):
    """Scatter-adds ``gy * w_t`` to ``base + sp_t`` (the adjoint of
    :func:`apply_plan`)."""
    xp = backend.get_array_module(gy)
    base, terms = plan
    acc = _acc_dtype(gy.dtype)
    gx = xp.zeros(int(numpy.prod(x_shape)), acc)
    for sp, w in terms:
        idx = xp.broadcast_to(base + sp, gy.shape)
        xp.add.at(gx, idx.ravel(), (gy * w).astype(acc, copy=False).ravel())
    return gx.reshape(x_shape).astype(gy.dtype, copy=False)


class ROIPlanGrad(FunctionNode):
    """The gradient of a RoI op in ``x``: its plan's adjoint."""

    def __init__(self, plan, x_shape, outsize):
        self.plan = plan
        self.x_shape = x_shape
        self.outsize = outsize

    def forward(self, inputs):
        return adjoint_plan(inputs[0], self.plan, self.x_shape),

    def backward(self, indexes, grad_outputs):
        return ROIPlanApply(self.plan, self.x_shape, self.outsize).apply(
            grad_outputs)


class ROIPlanApply(FunctionNode):
    """A RoI op's plan applied to another input (its second gradient)."""

    def __init__(self, plan, x_shape, outsize):
        self.plan = plan
        self.x_shape = x_shape
        self.outsize = outsize

    def forward(self, inputs):
        return apply_plan(inputs[0], self.plan, self.outsize),

    def backward(self, indexes, grad_outputs):
        return ROIPlanGrad(self.plan, self.x_shape, self.outsize).apply(
            grad_outputs)


class ROIFunctionBase(FunctionNode):
    """A RoI op of ``(x, rois, roi_indices)``: a subclass's ``_pool(x,
    rois, roi_indices)`` returns the output and its plan, whose adjoint is
    the gradient in ``x``."""

    def __init__(self, outsize, spatial_scale):
        self.outh, self.outw = self.outsize = parse_outsize(outsize)
        self.spatial_scale = parse_spatial_scale(spatial_scale)

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        check_inputs(self, x, rois, roi_indices)
        self._x_shape = x.shape
        y, self.plan = self._pool(x, rois, roi_indices)
        return y,

    def backward(self, indexes, grad_outputs):
        gx, = ROIPlanGrad(self.plan, self._x_shape, self.outsize).apply(
            grad_outputs)
        return (gx,) + (None,) * (len(self.inputs) - 1)


class ROIPoolingBase(ROIFunctionBase):
    """``_mode`` ('max' or 'avg') of the integer bins of
    :func:`pooling_bins`; an empty max bin gives ``-inf``."""

    def _pool(self, x, rois, roi_indices):
        bins = pooling_bins(x, rois, self.outsize, self.spatial_scale, 0)
        return bin_pool(x, roi_indices, *bins, self._mode, -numpy.inf)


class ROIAlignBase(ROIFunctionBase):
    """``_mode`` ('max' or 'avg') of the bilinear samples of
    :func:`align_pool`."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        super().__init__(outsize, spatial_scale)
        self.sampling_ratio = parse_sampling_ratio(sampling_ratio)

    def _pool(self, x, rois, roi_indices):
        return align_pool(x, rois, roi_indices, self.outsize,
                          self.spatial_scale, self.sampling_ratio,
                          self._mode)


# --- geometry --------------------------------------------------------------

def scaled_rois(xp, rois, spatial_scale, rounded):
    """``(ymin, xmin, ymax, xmax)`` in feature-map units, float64."""
    r = rois.astype(numpy.float64) * spatial_scale
    if rounded:
        r = xp.round(r)  # half to even, as Chainer's RoI poolings round
    return r[:, 0], r[:, 1], r[:, 2], r[:, 3]


def pooling_bins(x, rois, outsize, spatial_scale, plus_one):
    """The integer bins of the RoI poolings: ``(hb, he, wb, we)``.

    The RoI corners are rounded to the feature map; its extent is
    ``max(end - start (+ 1), 1)`` and bin ``k`` of ``n`` spans
    ``[floor(k * extent / n), ceil((k + 1) * extent / n))`` from the start.
    """
    xp = backend.get_array_module(x)
    H, W = x.shape[2:]
    ys, xs, ye, xe = scaled_rois(xp, rois, spatial_scale, True)
    hb, he = bin_bounds(xp, ys, xp.maximum(ye - ys + plus_one, 1),
                        outsize[0], H)
    wb, we = bin_bounds(xp, xs, xp.maximum(xe - xs + plus_one, 1),
                        outsize[1], W)
    return hb, he, wb, we


def bin_bounds(xp, start, length, n_bins, size):
    """Integer ``[begin, end)`` of each of the ``n_bins`` bins of
    ``length`` from ``start``, clipped to ``[0, size]``: ``(R, n_bins)``."""
    step = (length / n_bins)[:, None]
    k = xp.arange(n_bins)
    begin = xp.floor(k * step) + start[:, None]
    end = xp.ceil((k + 1) * step) + start[:, None]
    begin = xp.clip(begin, 0, size).astype(numpy.int64)
    end = xp.clip(end, 0, size).astype(numpy.int64)
    return begin, end


def bin_pool(x, roi_indices, hb, he, wb, we, mode, empty):
    """Max (``mode='max'``) or average of the integer bins
    ``[hb, he) x [wb, we)`` (each ``(R, oh)`` / ``(R, ow)``).

    Returns the output and its plan; ``empty`` is the value of an empty
    max bin.
    """
    xp = backend.get_array_module(x)
    _, _, H, W = x.shape
    outsize = (hb.shape[1], wb.shape[1])
    base = base_index(xp, x.shape, roi_indices)
    max_h = int((he - hb).max()) if he.size else 0
    max_w = int((we - wb).max()) if we.size else 0
    count = ((he - hb)[:, :, None] * (we - wb)[:, None, :])[:, None]
    terms = []
    for dy in range(max(max_h, 0)):
        iy = hb + dy
        vy = iy < he
        iy = xp.minimum(iy, H - 1)
        for dx in range(max(max_w, 0)):
            ix = wb + dx
            vx = ix < we
            ix = xp.minimum(ix, W - 1)
            sp = (iy[:, :, None] * W + ix[:, None, :])[:, None]
            valid = (vy[:, :, None] & vx[:, None, :])[:, None]
            terms.append((sp, valid))
    if mode == 'avg':
        inv = (1 / xp.maximum(count, 1)).astype(_acc_dtype(x.dtype))
        plan = (base, [(sp, valid * inv) for sp, valid in terms])
        return apply_plan(x, plan, outsize), plan
    xf = x.ravel()
    shape = base.shape[:2] + outsize
    y = xp.full(shape, -numpy.inf, x.dtype)
    best = xp.zeros(shape, numpy.int64)
    found = xp.zeros(shape, bool)
    for sp, valid in terms:
        v = xf[base + sp]
        take = valid & (v > y)   # strict: the first maximum wins
        y = xp.where(take, v, y)
        best = xp.where(take, sp, best)
        found |= take
    if empty != -numpy.inf:
        y = xp.where(found, y, xp.asarray(empty, x.dtype))
    return y, (base, [(best, found.astype(_acc_dtype(x.dtype)))])


def _axis_interp(xp, p, size):
    """Per-axis bilinear data of sample coordinates ``p``: low and high
    indices, their weights, and whether the point is inside."""
    inside = (p >= -1) & (p <= size)
    p = xp.maximum(p, 0)
    low = xp.floor(p).astype(numpy.int64)
    edge = low >= size - 1
    low = xp.where(edge, size - 1, low)
    high = xp.where(edge, size - 1, low + 1)
    p = xp.where(edge, low.astype(p.dtype), p)
    frac = p - low
    return low, high, 1 - frac, frac, inside


def align_pool(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio,
               mode):
    """RoI align: averages (or maxima) of bilinear samples on a regular grid
    in each bin (the Mask R-CNN rule, with Chainer's border handling)."""
    xp = backend.get_array_module(x)
    _, _, H, W = x.shape
    oh, ow = outsize
    ys, xs, ye, xe = scaled_rois(xp, rois, spatial_scale, False)
    rh = xp.maximum(ye - ys, 1.)
    rw = xp.maximum(xe - xs, 1.)
    bh, bw = rh / oh, rw / ow
    ratio_h, ratio_w = sampling_ratio or (None, None)
    gh = (xp.ceil(rh / oh).astype(numpy.int64) if ratio_h is None
          else xp.full(len(rois), ratio_h, numpy.int64))
    gw = (xp.ceil(rw / ow).astype(numpy.int64) if ratio_w is None
          else xp.full(len(rois), ratio_w, numpy.int64))
    acc = _acc_dtype(x.dtype)
    base = base_index(xp, x.shape, roi_indices)
    max_gh = int(gh.max()) if gh.size else 0
    max_gw = int(gw.max()) if gw.size else 0
    count = xp.maximum(gh * gw, 1).astype(numpy.float64)[:, None, None, None]
    kh, kw = xp.arange(oh), xp.arange(ow)
    samples = []   # per sample: the four (sp, weight) corners
    for iy in range(max_gh):
        py = ys[:, None] + kh * bh[:, None] + \
            ((iy + .5) * bh / xp.maximum(gh, 1))[:, None]
        yl, yh, wyl, wyh, iny = _axis_interp(xp, py, H)
        iny &= (iy < gh)[:, None]
        for ix in range(max_gw):
            px = xs[:, None] + kw * bw[:, None] + \
                ((ix + .5) * bw / xp.maximum(gw, 1))[:, None]
            xl, xh, wxl, wxh, inx = _axis_interp(xp, px, W)
            inx &= (ix < gw)[:, None]
            valid = (iny[:, :, None] & inx[:, None, :])[:, None]
            corners = []
            for yi, wy in ((yl, wyl), (yh, wyh)):
                for xi, wx in ((xl, wxl), (xh, wxh)):
                    sp = (yi[:, :, None] * W + xi[:, None, :])[:, None]
                    w = (wy[:, :, None] * wx[:, None, :])[:, None] * valid
                    corners.append((sp, w))
            samples.append((corners, valid))
    if mode == 'avg':
        terms = [(sp, (w / count).astype(acc)) for corners, _ in samples
                 for sp, w in corners]
        plan = (base, terms)
        return apply_plan(x, plan, outsize), plan
    shape = base.shape[:2] + outsize
    y = xp.full(shape, -numpy.inf, acc)
    best_sp = [xp.zeros(shape, numpy.int64) for _ in range(4)]
    best_w = [xp.zeros(shape, acc) for _ in range(4)]
    for corners, valid in samples:
        v = apply_plan(x, (base, [(sp, w.astype(acc))
                                  for sp, w in corners]), outsize, False)
        take = valid & (v > y)
        y = xp.where(take, v, y)
        for k, (sp, w) in enumerate(corners):
            best_sp[k] = xp.where(take, sp, best_sp[k])
            best_w[k] = xp.where(take, w.astype(acc), best_w[k])
    return y.astype(x.dtype, copy=False), (base, list(zip(best_sp, best_w)))
