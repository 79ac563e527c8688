import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, uniform

# F.roi_average_align_2d of Chainer 7.8.1 on the inputs of _chainer_inputs(), with
# (outsize, spatial_scale) = ((2, 3), 0.8), and with (2, 0.8) and
# sampling_ratio=2.
CHAINER_OUT = [
    [[[0.282817, 1.038054, 0.188839], [0.340507, -0.253058, -0.15681]],
     [[-0.012777, 0.886918, 0.585998], [0.270454, 0.080284, -0.362311]]],
    [[[-0.695165, -0.704272, -0.10065], [-0.213434, -0.660392, -0.578104]],
     [[-0.634703, -0.962126, -1.736546], [-0.115253, -0.753903, 0.257671]]],
    [[[0.576625, 1.289944, 1.421375], [0.166064, 1.023265, 1.119195]],
     [[0.296209, 0.429599, 0.546757], [0.421062, 0.391747, 0.306145]]]]
CHAINER_OUT_RATIO = [
    [[[0.431689, 0.684222], [0.035614, -0.077897]],
     [[0.185206, 0.869247], [0.214314, -0.204132]]],
    [[[-0.799752, -0.209814], [-0.343216, -0.628466]],
     [[-0.676858, -1.52985], [-0.325157, -0.109288]]],
    [[[0.754955, 1.454929], [0.380365, 1.182097]],
     [[0.329556, 0.51932], [0.413733, 0.333969]]]]


def _chainer_inputs():
    rng = numpy.random.RandomState(3)
    x = rng.randn(2, 2, 5, 6).astype(numpy.float32)
    rois = numpy.array([[0.6, 1.2, 4.9, 5.3], [-1., 2.2, 3.1, 7.5],
                        [2.5, 0.4, 2.7, 1.1]], numpy.float32)
    return x, rois, numpy.array([1, 0, 1], numpy.int32)


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


# RoIs partly outside the map (with samples beyond the border) and a thin
# one.
# (Exact in float16, as the RoIs take x's dtype.)
ROIS = numpy.array([[0.25, 0.25, 3.875, 4.625], [1.25, -1.375, 6.125, 3.25],
                    [2.0, 3.0, 2.375, 3.125], [-1.625, 1.0, 1.25, 5.0]])
ROI_INDICES = numpy.array([1, 0, 1, 0], numpy.int32)


@pytest.mark.parametrize('ratio', [None, (2, 1)])
def test_roi_average_align_2d(ratio):
    # The samples of the last RoI beyond the map are skipped (an output
    # with no sample inside is 0).
    check_op(lambda x: F.roi_average_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES,
                                  (2, 3), 0.9, ratio),
             lambda rng, dt: (uniform(rng, (2, 2, 5, 4), dt),),
             lambda x: align_ref(x, ROIS, ROI_INDICES, (2, 3), 0.9, ratio,
                                 'avg'), eps=1e-3)


def test_matches_chainer():
    x, rois, ri = _chainer_inputs()
    y = F.roi_average_align_2d(x, rois, ri, (2, 3), 0.8)
    assert type(y.creator).__name__ == 'ROIAverageAlign2D'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-5)
    y = F.roi_average_align_2d(x, rois, ri, 2, 0.8, sampling_ratio=2)
    numpy.testing.assert_allclose(y.array, CHAINER_OUT_RATIO, atol=1e-5)
    numpy.testing.assert_allclose(
        y.array, align_ref(x, rois, ri, (2, 2), 0.8, (2, 2), 'avg'),
        atol=1e-5)


def test_gradient_spreads_to_samples():
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    y = F.roi_average_align_2d(x, numpy.array([[0, 0, 2, 2]], numpy.float32),
                               numpy.zeros(1, numpy.int32), 1, 1.0)
    assert y.array.item() == 5.0
    F.sum(y).backward()
    expected = numpy.zeros((4, 4), numpy.float32)
    expected[:3, :3] = numpy.outer([.5, 1, .5], [.5, 1, .5]) / 4
    numpy.testing.assert_allclose(x.grad[0, 0], expected)


def test_errors():
    x, rois, ri = _chainer_inputs()
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_average_align_2d(x, rois, ri, 2, 0.5, sampling_ratio=0)
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_average_align_2d(x, rois, ri, 2, 0.5, sampling_ratio=2.0)
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_average_align_2d(x, rois, ri, 2, 0.5, sampling_ratio=(1, 2, 3))
    with pytest.raises(TypeError, match='outsize'):
        F.roi_average_align_2d(x, rois, ri, 0, 0.5)
    with pytest.raises(TypeError, match='spatial_scale'):
        F.roi_average_align_2d(x, rois, ri, 2, 0)
    with pytest.raises(InvalidType, match='roi_indices.dtype == int32'):
        F.roi_average_align_2d(x, rois, ri.astype(numpy.int64), 2, 0.5)
    with pytest.raises(InvalidType, match='rois.dtype == x.dtype'):
        F.roi_average_align_2d(x, rois.astype(numpy.float64), ri, 2, 0.5)
    with pytest.raises(InvalidType, match='roi_indices.shape'):
        F.roi_average_align_2d(x, rois[:2], ri, 2, 0.5)
