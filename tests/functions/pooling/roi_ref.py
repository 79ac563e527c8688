"""Shared inputs and loop references of the RoI pooling and align tests."""

import numpy


def chainer_inputs():
    """The inputs on which the expected values were produced with Chainer
    7.8.1: ``x``, RoIs ``(y_min, x_min, y_max, x_max)`` and indices."""
    rng = numpy.random.RandomState(3)
    x = rng.randn(2, 2, 5, 6).astype(numpy.float32)
    rois = numpy.array([[0.6, 1.2, 4.9, 5.3], [-1., 2.2, 3.1, 7.5],
                        [2.5, 0.4, 2.7, 1.1]], numpy.float32)
    return x, rois, numpy.array([1, 0, 1], numpy.int32)


def distinct(rng, shape, dt):
    """Distinct values (no ties for a maximum to break), spaced by 0.5."""
    x = rng.permutation(numpy.prod(shape)).reshape(shape) * 0.5
    return (x - x.mean()).astype(dt)


# RoIs for the gradient checks (exact in float16, as the RoIs take x's
# dtype); ROI_INDICES goes with both.
POOL_ROIS = numpy.array([[0.25, 0.25, 3.875, 4.625],
                         [1.25, -1.375, 6.125, 3.25],
                         [2.0, 3.0, 2.375, 3.125], [-3., -3., -1., -1.]])
# partly outside the map (with samples beyond the border) and a thin one
ALIGN_ROIS = numpy.array([[0.25, 0.25, 3.875, 4.625],
                          [1.25, -1.375, 6.125, 3.25],
                          [2.0, 3.0, 2.375, 3.125], [-1.625, 1.0, 1.25, 5.0]])
ROI_INDICES = numpy.array([1, 0, 1, 0], numpy.int32)


def pool_ref(x, rois, roi_indices, outsize, scale, reduce, empty, plus=0):
    """Loop reference of the RoI poolings (corners rounded half to even)."""
    H, W = x.shape[2:]
    oh, ow = outsize
    y = numpy.full((len(rois), x.shape[1], oh, ow), empty, numpy.float64)
    for r, roi in enumerate(rois):
        y1, x1, y2, x2 = [round(float(v) * scale) for v in roi]
        bh = max(y2 - y1 + plus, 1) / oh
        bw = max(x2 - x1 + plus, 1) / ow
        for i in range(oh):
            hs = min(max(int(numpy.floor(i * bh)) + y1, 0), H)
            he = min(max(int(numpy.ceil((i + 1) * bh)) + y1, 0), H)
            for j in range(ow):
                ws = min(max(int(numpy.floor(j * bw)) + x1, 0), W)
                we = min(max(int(numpy.ceil((j + 1) * bw)) + x1, 0), W)
                if he > hs and we > ws:
                    y[r, :, i, j] = reduce(
                        x[roi_indices[r], :, hs:he, ws:we].reshape(
                            x.shape[1], -1))
    return y


def _interp(img, y, x):
    H, W = img.shape[1:]
    if y < -1 or y > H or x < -1 or x > W:
        return None
    y, x = max(y, 0.), max(x, 0.)
    yl, xl = int(y), int(x)
    if yl >= H - 1:
        yl = yh = H - 1
        y = float(yl)
    else:
        yh = yl + 1
    if xl >= W - 1:
        xl = xh = W - 1
        x = float(xl)
    else:
        xh = xl + 1
    ly, lx = y - yl, x - xl
    return ((1 - ly) * (1 - lx) * img[:, yl, xl] +
            (1 - ly) * lx * img[:, yl, xh] +
            ly * (1 - lx) * img[:, yh, xl] + ly * lx * img[:, yh, xh])


def align_ref(x, rois, roi_indices, outsize, scale, ratio, kind):
    """Loop reference of RoI align (Mask R-CNN sampling)."""
    oh, ow = outsize
    C = x.shape[1]
    y = numpy.zeros((len(rois), C, oh, ow))
    for r, roi in enumerate(rois):
        y1, x1, y2, x2 = [float(v) * scale for v in roi]
        rh, rw = max(y2 - y1, 1.), max(x2 - x1, 1.)
        bh, bw = rh / oh, rw / ow
        gh = ratio[0] if ratio else int(numpy.ceil(rh / oh))
        gw = ratio[1] if ratio else int(numpy.ceil(rw / ow))
        for i in range(oh):
            for j in range(ow):
                vals = []
                for iy in range(gh):
                    for ix in range(gw):
                        v = _interp(x[roi_indices[r]],
                                    y1 + i * bh + (iy + .5) * bh / gh,
                                    x1 + j * bw + (ix + .5) * bw / gw)
                        if v is not None:
                            vals.append(v)
                if kind == 'avg':
                    y[r, :, i, j] = numpy.sum(vals, 0) / (gh * gw) \
                        if vals else 0
                else:
                    y[r, :, i, j] = numpy.max(vals, 0) if vals else -numpy.inf
    return y
