import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device
from roi_ref import (POOL_ROIS, ROI_INDICES, chainer_inputs, distinct,
                     pool_ref)

# F.roi_max_pooling_2d of Chainer 7.8.1 on the inputs of chainer_inputs().
CHAINER_OUT = [
    [[[1.333738, 0.437947, 1.938978], [1.769627, 0.483788, 0.676216]],
     [[-0.516417, -0.300206, 2.158149], [0.564485, 1.233471, 0.148986]]],
    [[[0.096497, -0.277388, -0.277388], [0.096497, -0.277388, 0.884622]],
     [[-0.626417, -0.626417, -0.803766], [1.123978, -0.131914, 0.646675]]],
    [[[-0.154507] * 3] * 2, [[-0.079741] * 3] * 2]]


def test_roi_max_pooling_2d():
    def f(x):
        rois = POOL_ROIS.astype(x.dtype)
        return F.roi_max_pooling_2d(x, rois, ROI_INDICES, (2, 3), 0.9)

    def ref(x):
        # The last RoI lies outside the map: its bins are empty (-inf).
        return pool_ref(x, POOL_ROIS, ROI_INDICES, (2, 3), 0.9,
                        lambda v: v.max(-1), -numpy.inf)
    x16 = distinct(numpy.random.RandomState(0), (2, 2, 5, 4), numpy.float16)
    assert numpy.isinf(f(x16).array[3]).all()
    ok = POOL_ROIS[:3]
    check_op(lambda x: F.roi_max_pooling_2d(
        x, *on_device(ok.astype(x.dtype), ROI_INDICES[:3]), (2, 3), 0.9),
             lambda rng, dt: (distinct(rng, (2, 2, 5, 4), dt),),
             lambda x: ref(x)[:3], eps=1e-3)


def test_matches_chainer():
    x, rois, ri = chainer_inputs()
    y = F.roi_max_pooling_2d(x, rois, ri, (2, 3), 0.8)
    assert type(y.creator).__name__ == 'ROIMaxPooling2D'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-6)


def test_gradient_goes_to_argmax():
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    y = F.roi_max_pooling_2d(x, numpy.array([[0, 0, 4, 4]], numpy.float32),
                             numpy.zeros(1, numpy.int32), 2, 1.0)
    F.sum(y).backward()
    expected = numpy.zeros((4, 4), numpy.float32)
    expected[[1, 1, 3, 3], [1, 3, 1, 3]] = 1
    numpy.testing.assert_array_equal(x.grad[0, 0], expected)


def test_no_rois():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    y = F.roi_max_pooling_2d(x, numpy.zeros((0, 4), numpy.float32),
                             numpy.zeros(0, numpy.int32), 2, 1.0)
    assert y.shape == (0, 2, 2, 2)


def test_errors():
    x, rois, ri = chainer_inputs()
    with pytest.raises(InvalidType, match='roi_indices.dtype == int32'):
        F.roi_max_pooling_2d(x, rois, ri.astype(numpy.int64), 2, 0.5)
    with pytest.raises(InvalidType, match='rois.dtype == x.dtype'):
        F.roi_max_pooling_2d(x, rois.astype(numpy.float64), ri, 2, 0.5)
    with pytest.raises(InvalidType, match='roi_indices.shape'):
        F.roi_max_pooling_2d(x, rois[:1], ri, 2, 0.5)
    with pytest.raises(InvalidType, match='rois.shape'):
        F.roi_max_pooling_2d(x, rois[:, :3], ri, 2, 0.5)
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.roi_max_pooling_2d(x[0], rois, ri, 2, 0.5)
    with pytest.raises(TypeError, match='outsize'):
        F.roi_max_pooling_2d(x, rois, ri, 0, 0.5)
    with pytest.raises(TypeError, match='outsize'):
        F.roi_max_pooling_2d(x, rois, ri, 2.0, 0.5)
    with pytest.raises(TypeError, match='spatial_scale'):
        F.roi_max_pooling_2d(x, rois, ri, 2, (0.5, 0.5))
    with pytest.raises(TypeError, match='spatial_scale'):
        F.roi_max_pooling_2d(x, rois, ri, 2, -1.)
    with pytest.raises(IndexError, match='roi_indices'):
        F.roi_max_pooling_2d(x, rois, ri + 1, 2, 0.5)
