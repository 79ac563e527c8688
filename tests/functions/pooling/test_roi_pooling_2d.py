import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device
from roi_ref import distinct, pool_ref

# F.roi_pooling_2d of Chainer 7.8.1 on the inputs of _chainer_inputs().
CHAINER_OUT = [
    [[[1.769627, 1.938978, 1.938978], [1.769627, 0.676216, 0.676216]],
     [[1.233471, 2.158149, 2.158149], [1.233471, 1.233471, 0.486249]]],
    [[[0.096497, -0.277388, -0.354759], [0.050034, 0.884622, 0.884622]],
     [[-0.626417, -0.626417, -2.419083], [1.123978, 0.646675, 0.646675]]],
    [[[-0.154507, 1.769627, 1.769627], [-0.154507, 1.769627, 1.769627]],
     [[-0.079741, 0.564485, 0.564485], [-0.079741, 0.564485, 0.564485]]]]


def _chainer_inputs():
    rng = numpy.random.RandomState(3)
    x = rng.randn(2, 2, 5, 6).astype(numpy.float32)
    rois = numpy.array([[1, 1.2, 0.6, 5.3, 4.9], [0, 2.2, -1., 7.5, 3.1],
                        [1, 0.4, 2.5, 1.1, 2.7]], numpy.float32)
    return x, rois


# (batch index, x_min, y_min, x_max, y_max); the last one is outside.
ROIS = numpy.array([[1, 0.25, 0.25, 4.625, 3.875],
                    [0, -1.375, 1.25, 3.25, 6.125],
                    [1, 3.0, 2.0, 3.125, 2.375], [0, -3., -3., -2., -2.]])


def test_roi_pooling_2d():
    boxes = ROIS[:, [2, 1, 4, 3]]
    check_op(lambda x: F.roi_pooling_2d(x, on_device(ROIS.astype(x.dtype)),
                                        2, 3, 0.9),
             lambda rng, dt: (distinct(rng, (2, 2, 5, 4), dt),),
             lambda x: pool_ref(x, boxes, ROIS[:, 0].astype(int), (2, 3), 0.9,
                                lambda v: v.max(-1), 0., plus=1), eps=1e-3)


def test_matches_chainer():
    x, rois = _chainer_inputs()
    y = F.roi_pooling_2d(x, rois, 2, 3, 0.8)
    assert type(y.creator).__name__ == 'ROIPooling2D'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-6)


def test_rounding_half_to_even():
    # x[i, j] = 8 i + j: the max of a RoI is its bottom-right pixel.
    x = numpy.arange(64, dtype=numpy.float32).reshape(1, 1, 8, 8)
    for v, last in [(0.5, 4), (1.5, 4), (2.5, 6), (3.5, 6)]:
        rois = numpy.array([[0, v, v, v + 3, v + 3]], numpy.float32)
        assert F.roi_pooling_2d(x, rois, 1, 1, 1.0).array.item() == \
            last * 9


def test_double_backprop():
    x = chainer.Variable(distinct(numpy.random.RandomState(0), (1, 2, 4, 4),
                                  numpy.float64))
    rois = numpy.array([[0, 0, 0, 3, 3]], numpy.float64)
    y = F.roi_pooling_2d(x, rois, 2, 2, 1.0)
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx)], [x])
    # d/dx sum(2 y) at the argmax pixels is 2.
    assert ggx.array.sum() == 2 * y.size


def test_errors():
    x, rois = _chainer_inputs()
    with pytest.raises(InvalidType, match='rois.shape'):
        F.roi_pooling_2d(x, rois[:, :4], 2, 3, 0.5)
    with pytest.raises(InvalidType, match='rois.dtype == x.dtype'):
        F.roi_pooling_2d(x, rois.astype(numpy.float64), 2, 3, 0.5)
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.roi_pooling_2d(x[0], rois, 2, 3, 0.5)
    with pytest.raises(TypeError, match='outsize'):
        F.roi_pooling_2d(x, rois, 0, 3, 0.5)


def test_mixed_dtypes_without_type_check():
    # as Chainer: the rois' dtype check is a type check; with it off the
    # pooled values keep x's dtype
    x = numpy.arange(16.).reshape(1, 1, 4, 4) / 7
    rois = numpy.array([[0, 0, 0, 3, 3]], numpy.float32)
    with pytest.raises(InvalidType, match='rois.dtype == x.dtype'):
        F.roi_pooling_2d(x, rois, 2, 2, 1.)
    with chainer.using_config('type_check', False):
        y = F.roi_pooling_2d(x, rois, 2, 2, 1.)
        z = F.roi_average_pooling_2d(
            x.astype(numpy.float32), rois[:, 1:].astype(numpy.float64),
            numpy.array([0], numpy.int32), 2, 1.)
    assert y.dtype == numpy.float64
    assert y.array.tolist() == [[[[0.7142857142857143, 1.0],
                                  [1.8571428571428572, 2.142857142857143]]]]
    assert z.dtype == numpy.float32
    assert z.array.tolist() == [[[[0.3571428656578064, 0.5],
                                  [0.9285714626312256, 1.0714285373687744]]]]
