import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device
from roi_ref import (ALIGN_ROIS, ROI_INDICES, align_ref, chainer_inputs,
                     distinct)

# F.roi_max_align_2d of Chainer 7.8.1 on the inputs of chainer_inputs(), with
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


@pytest.mark.parametrize('ratio', [None, (2, 1)])
def test_roi_max_align_2d(ratio):
    # The samples of the last RoI beyond the map are skipped (an output
    # with no sample inside is -inf (no sample inside)).
    check_op(lambda x: F.roi_max_align_2d(
        x, *on_device(ALIGN_ROIS.astype(x.dtype), ROI_INDICES), (2, 3), 0.9,
        ratio),
        lambda rng, dt: (distinct(rng, (2, 2, 5, 4), dt),),
        lambda x: align_ref(x, ALIGN_ROIS, ROI_INDICES, (2, 3), 0.9, ratio,
                            'max'), eps=1e-3)


def test_matches_chainer():
    x, rois, ri = chainer_inputs()
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
    x, rois, ri = chainer_inputs()
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
