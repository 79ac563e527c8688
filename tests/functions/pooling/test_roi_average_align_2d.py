import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device, uniform
from roi_ref import ALIGN_ROIS, ROI_INDICES, align_ref, chainer_inputs

# F.roi_average_align_2d of Chainer 7.8.1 on the inputs of chainer_inputs(), with
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


@pytest.mark.parametrize('ratio', [None, (2, 1)])
def test_roi_average_align_2d(ratio):
    # The samples of the last RoI beyond the map are skipped (an output
    # with no sample inside is 0).
    check_op(lambda x: F.roi_average_align_2d(
        x, *on_device(ALIGN_ROIS.astype(x.dtype), ROI_INDICES), (2, 3), 0.9,
        ratio),
        lambda rng, dt: (uniform(rng, (2, 2, 5, 4), dt),),
        lambda x: align_ref(x, ALIGN_ROIS, ROI_INDICES, (2, 3), 0.9, ratio,
                            'avg'), eps=1e-3)


def test_matches_chainer():
    x, rois, ri = chainer_inputs()
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
    x, rois, ri = chainer_inputs()
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


@pytest.mark.parametrize('func', [F.roi_average_align_2d, F.roi_max_align_2d])
def test_sampling_ratio_with_one_adaptive_axis(func):
    # (None, 3): the height's sample count is chosen per RoI (here
    # ceil(4 / 2) = 2), the width's is 3, as in Chainer
    x = numpy.random.RandomState(0).randn(1, 2, 8, 8).astype(numpy.float32)
    rois = numpy.array([[1., 0.5, 5., 6.5]], numpy.float32)   # h 4, w 6
    ri = numpy.array([0], numpy.int32)
    y = func(x, rois, ri, 2, 1.0, sampling_ratio=(None, 3))
    numpy.testing.assert_array_equal(
        y.array, func(x, rois, ri, 2, 1.0, sampling_ratio=(2, 3)).array)
    assert not numpy.array_equal(
        y.array, func(x, rois, ri, 2, 1.0, sampling_ratio=(1, 3)).array)
