import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, uniform

# F.roi_average_pooling_2d of Chainer 7.8.1 on the inputs of
# _chainer_inputs().
CHAINER_OUT = [
    [[[0.134771, 0.120266, 1.856812], [1.580645, -0.44344, 0.45739]],
     [[-0.685927, -0.630101, 1.267722], [0.438773, 0.358412, -0.020043]]],
    [[[-0.883498, -1.070441, -0.316074], [-0.572008, -0.982991, -0.265347]],
     [[-0.93527, -0.715091, -1.611425], [-0.219619, -0.796346, -1.049865]]],
    [[[-0.154507] * 3] * 2, [[-0.079741] * 3] * 2]]


def _chainer_inputs():
    rng = numpy.random.RandomState(3)
    x = rng.randn(2, 2, 5, 6).astype(numpy.float32)
    rois = numpy.array([[0.6, 1.2, 4.9, 5.3], [-1., 2.2, 3.1, 7.5],
                        [2.5, 0.4, 2.7, 1.1]], numpy.float32)
    return x, rois, numpy.array([1, 0, 1], numpy.int32)


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


def distinct(rng, shape, dt):
    x = rng.permutation(numpy.prod(shape)).reshape(shape) * 0.5
    return (x - x.mean()).astype(dt)


# (Exact in float16, as the RoIs take x's dtype.)
ROIS = numpy.array([[0.25, 0.25, 3.875, 4.625], [1.25, -1.375, 6.125, 3.25],
                    [2.0, 3.0, 2.375, 3.125], [-3., -3., -1., -1.]])
ROI_INDICES = numpy.array([1, 0, 1, 0], numpy.int32)


def test_roi_average_pooling_2d():
    # The last RoI lies outside the map: its empty bins give 0.
    check_op(lambda x: F.roi_average_pooling_2d(
        x, ROIS.astype(x.dtype), ROI_INDICES, (2, 3), 0.9),
        lambda rng, dt: (uniform(rng, (2, 2, 5, 4), dt),),
        lambda x: pool_ref(x, ROIS, ROI_INDICES, (2, 3), 0.9,
                           lambda v: v.mean(-1), 0.))


def test_matches_chainer():
    x, rois, ri = _chainer_inputs()
    y = F.roi_average_pooling_2d(x, rois, ri, (2, 3), 0.8)
    assert type(y.creator).__name__ == 'ROIAveragePooling2D'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-6)


def test_gradient_spreads_over_bins():
    x = chainer.Variable(numpy.ones((1, 1, 4, 4), numpy.float32))
    y = F.roi_average_pooling_2d(
        x, numpy.array([[0, 0, 4, 3]], numpy.float32),
        numpy.zeros(1, numpy.int32), (1, 2), 1.0)
    F.sum(y).backward()
    # Bins [0, 4) x [0, 2) and [0, 4) x [1, 3): column 1 is in both.
    numpy.testing.assert_allclose(x.grad[0, 0, 0], [1 / 8, 1 / 4, 1 / 8, 0])


def test_errors():
    x, rois, ri = _chainer_inputs()
    with pytest.raises(InvalidType, match='roi_indices.dtype == int32'):
        F.roi_average_pooling_2d(x, rois, ri.astype(numpy.float32), 2, 0.5)
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.roi_average_pooling_2d(x.astype(numpy.int32), rois, ri, 2, 0.5)
    with pytest.raises(TypeError, match='outsize'):
        F.roi_average_pooling_2d(x, rois, ri, (2, -1), 0.5)
    with pytest.raises(TypeError, match='spatial_scale'):
        F.roi_average_pooling_2d(x, rois, ri, 2, 'a')
