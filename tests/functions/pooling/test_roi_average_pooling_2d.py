import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device, uniform
from roi_ref import POOL_ROIS, ROI_INDICES, chainer_inputs, pool_ref

# F.roi_average_pooling_2d of Chainer 7.8.1 on the inputs of
# chainer_inputs().
CHAINER_OUT = [
    [[[0.134771, 0.120266, 1.856812], [1.580645, -0.44344, 0.45739]],
     [[-0.685927, -0.630101, 1.267722], [0.438773, 0.358412, -0.020043]]],
    [[[-0.883498, -1.070441, -0.316074], [-0.572008, -0.982991, -0.265347]],
     [[-0.93527, -0.715091, -1.611425], [-0.219619, -0.796346, -1.049865]]],
    [[[-0.154507] * 3] * 2, [[-0.079741] * 3] * 2]]


def test_roi_average_pooling_2d():
    # The last RoI lies outside the map: its empty bins give 0.
    check_op(lambda x: F.roi_average_pooling_2d(
        x, *on_device(POOL_ROIS.astype(x.dtype), ROI_INDICES), (2, 3), 0.9),
        lambda rng, dt: (uniform(rng, (2, 2, 5, 4), dt),),
        lambda x: pool_ref(x, POOL_ROIS, ROI_INDICES, (2, 3), 0.9,
                           lambda v: v.mean(-1), 0.))


def test_matches_chainer():
    x, rois, ri = chainer_inputs()
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
    x, rois, ri = chainer_inputs()
    with pytest.raises(InvalidType, match='roi_indices.dtype == int32'):
        F.roi_average_pooling_2d(x, rois, ri.astype(numpy.float32), 2, 0.5)
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.roi_average_pooling_2d(x.astype(numpy.int32), rois, ri, 2, 0.5)
    with pytest.raises(TypeError, match='outsize'):
        F.roi_average_pooling_2d(x, rois, ri, (2, -1), 0.5)
    with pytest.raises(TypeError, match='spatial_scale'):
        F.roi_average_pooling_2d(x, rois, ri, 2, 'a')
