import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# F.roi_max_align_2d of Chainer 7.8.1 on the inputs of _chainer_inputs(), with
# (outsize, spatial_scale) = ((2, 3), 0.8), and with (2, 0.8) and
# sampling_ratio=(1, 2).
CHAINER_OUT = [
    [[[0.967441, 1.728688, 0.698796], [1.014436, 0.26306, 0.617361]],
     [[0.739305, 1.699261, 1.471194], [0.341876, 0.149861, -0.178572]]],
    [[[-0.111575, -0.295441, 0.178175], [-0.070078, -0.397281, 0.276848]],
     [[-0.24714, -0.719821, -1.100807], [0.587298, -0.538874, 0.492435]]],
    [[[0.576625, 1.289944, 1.421375], [0.166064, 1.023265, 1.119195]],
     [[0.296209, 0.429599, 0.546757], [0.421062, 0.391747, 0.306145]]]]
CHAINER_OUT_RATIO = [
    [[[0.654193, 1.489965], [0.391035, 0.362957]],
     [[0.459464, 1.46425], [0.042994, -0.15148]]],
    [[[-0.465852, -0.311178], [-0.111641, -0.719903]],
     [[-0.687797, -1.450577], [-0.133925, 0.239481]]],
    [[[1.022449, 1.557439], [0.701815, 1.344716]],
     [[0.379578, 0.55902], [0.424726, 0.380754]]]]


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


def distinct(rng, shape, dt):
    x = rng.permutation(numpy.prod(shape)).reshape(shape) * 0.5
    return (x - x.mean()).astype(dt)


@pytest.mark.parametrize('ratio', [None, (2, 1)])
def test_roi_max_align_2d(ratio):
    # The samples of the last RoI beyond the map are skipped (an output
    # with no sample inside is -inf (no sample inside)).
    check_op(lambda x: F.roi_max_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES,
                                  (2, 3), 0.9, ratio),
             lambda rng, dt: (distinct(rng, (2, 2, 5, 4), dt),),
             lambda x: align_ref(x, ROIS, ROI_INDICES, (2, 3), 0.9, ratio,
                                 'max'), eps=1e-3)


def test_matches_chainer():
    x, rois, ri = _chainer_inputs()
    y = F.roi_max_align_2d(x, rois, ri, (2, 3), 0.8)
    assert type(y.creator).__name__ == 'ROIMaxAlign2D'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-5)
    y = F.roi_max_align_2d(x, rois, ri, 2, 0.8, sampling_ratio=(1, 2))
    numpy.testing.assert_allclose(y.array, CHAINER_OUT_RATIO, atol=1e-5)
    numpy.testing.assert_allclose(
        y.array, align_ref(x, rois, ri, (2, 2), 0.8, (1, 2), 'max'),
        atol=1e-5)


def test_gradient_goes_to_best_sample():
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    # One bin, samples at (0.5, 0.5), (0.5, 1.5), (1.5, 0.5), (1.5, 1.5):
    # the last is the largest; its four neighbours get 1/4 each.
    y = F.roi_max_align_2d(x, numpy.array([[0, 0, 2, 2]], numpy.float32),
                           numpy.zeros(1, numpy.int32), 1, 1.0)
    assert y.array.item() == 7.5
    F.sum(y).backward()
    expected = numpy.zeros((4, 4), numpy.float32)
    expected[1:3, 1:3] = 0.25
    numpy.testing.assert_array_equal(x.grad[0, 0], expected)


def test_outside_is_minus_inf():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    rois = numpy.array([[-5, 0, -2, 3], [0, 0, 3, 3]], numpy.float32)
    y = F.roi_max_align_2d(x, rois, numpy.zeros(2, numpy.int32), 2, 1.0)
    assert numpy.isneginf(y.array[0]).all()
    numpy.testing.assert_array_equal(y.array[1], 1)


def test_errors():
    x, rois, ri = _chainer_inputs()
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_max_align_2d(x, rois, ri, 2, 0.5, sampling_ratio=0)
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_max_align_2d(x, rois, ri, 2, 0.5, sampling_ratio=2.0)
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_max_align_2d(x, rois, ri, 2, 0.5, sampling_ratio=(1, 2, 3))
    with pytest.raises(TypeError, match='outsize'):
        F.roi_max_align_2d(x, rois, ri, 0, 0.5)
    with pytest.raises(TypeError, match='spatial_scale'):
        F.roi_max_align_2d(x, rois, ri, 2, 0)
    with pytest.raises(InvalidType, match='roi_indices.dtype == int32'):
        F.roi_max_align_2d(x, rois, ri.astype(numpy.int64), 2, 0.5)
    with pytest.raises(InvalidType, match='rois.dtype == x.dtype'):
        F.roi_max_align_2d(x, rois.astype(numpy.float64), ri, 2, 0.5)
    with pytest.raises(InvalidType, match='roi_indices.shape'):
        F.roi_max_align_2d(x, rois[:2], ri, 2, 0.5)
