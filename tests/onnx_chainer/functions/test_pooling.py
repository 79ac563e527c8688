import numpy
import pytest

import chainer.functions as F
from onnx_harness import LATEST, Fn, check, rand

CASES = {
    'max_pooling_2d': (lambda x: F.max_pooling_2d(x, 2), (1, 3, 6, 6)),
    'max_pooling_2d_pad': (lambda x: F.max_pooling_2d(
        x, 3, stride=2, pad=1, cover_all=False), (1, 3, 6, 7)),
    'max_pooling_2d_cover_all': (lambda x: F.max_pooling_2d(
        x, 3, stride=(2, 1), pad=1, cover_all=True), (1, 3, 6, 5)),
    'max_pooling_2d_cover_all_odd': (lambda x: F.max_pooling_2d(
        x, 2, stride=3), (2, 2, 7, 8)),
    'max_pooling_nd': (lambda x: F.max_pooling_nd(x, 2, 1, 1,
                                                  cover_all=False),
                       (1, 2, 4, 4, 4)),
    'max_pooling_nd_cover_all': (lambda x: F.max_pooling_nd(x, 3, 2, 1),
                                 (1, 2, 6, 5, 4)),
    'max_pooling_1d': (lambda x: F.max_pooling_1d(x, 2), (2, 3, 7)),
    'average_pooling_2d': (lambda x: F.average_pooling_2d(x, 2),
                           (1, 3, 6, 6)),
    'average_pooling_2d_pad': (lambda x: F.average_pooling_2d(x, 3, 2, 1),
                               (1, 3, 6, 7)),
    'average_pooling_nd': (lambda x: F.average_pooling_nd(x, 2, 1, 1),
                           (1, 2, 4, 4, 4)),
    'average_pooling_nd_pad_none': (lambda x: F.average_pooling_nd(
        x, 3, 2, 1, pad_value=None), (1, 2, 5, 6)),
    'unpooling_2d': (lambda x: F.unpooling_2d(x, 2, cover_all=False),
                     (1, 3, 3, 4)),
    'unpooling_2d_cover_all': (lambda x: F.unpooling_2d(x, 3),
                               (1, 3, 3, 3)),
    'unpooling_2d_overlap': (lambda x: F.unpooling_2d(
        x, 3, stride=2, pad=1, cover_all=False), (1, 2, 3, 4)),
    'unpooling_2d_outsize': (lambda x: F.unpooling_2d(
        x, 2, outsize=(7, 8)), (1, 2, 4, 4)),
    'unpooling_nd': (lambda x: F.unpooling_nd(x, 2, cover_all=False),
                     (1, 2, 2, 3, 2)),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_pooling(name):
    fn, shape = CASES[name]
    check(Fn(fn), rand(*shape), atol=1e-5)


def test_roi_pooling_2d():
    x = numpy.random.uniform(0.1, 1, (3, 3, 12, 8)).astype(numpy.float32)
    rois = numpy.array([[0, 1, 1, 6, 6], [2, 6, 2, 7, 11], [1, 3, 1, 5, 10],
                        [0, 3, 3, 3, 3]], numpy.float32)
    model = Fn(lambda x, r: F.roi_pooling_2d(x, r, 3, 7, 0.6))
    # onnxruntime has no MaxRoiPool of opset 22 on.
    with pytest.warns(UserWarning, match='MaxRoiPool'):
        check(model, (x, rois), opsets=(7, 11, 21))


_ROIS = numpy.array([[0, 0, 7, 5], [1.3, 2.2, 11.9, 9.5], [-2, -3, 4.4, 3.3],
                     [5, 5, 5.5, 5.2], [3, 1, 30, 20]], numpy.float32)
_ROI_INDICES = numpy.array([0, 1, 1, 0, 1], numpy.int32)


@pytest.mark.parametrize('sampling_ratio,scale', [
    (None, 1.0), (2, 0.5), ((3, 3), 0.7)])
def test_roi_average_align_2d(sampling_ratio, scale):
    # RoIs inside, across the border, under a pixel and outside the map.
    # (onnxruntime 1.32 has no kernel of RoiAlign-22: opsets up to 21.)
    model = Fn(lambda x, r, i: F.roi_average_align_2d(
        x, r, i, (3, 4), scale, sampling_ratio))
    check(model, (rand(2, 3, 12, 10), _ROIS, _ROI_INDICES),
          opsets=(10, 16, 21), since=10)


@pytest.mark.parametrize('sampling_ratio,scale', [(2, 1.0), ((1, 3), 0.6)])
def test_roi_max_align_2d(sampling_ratio, scale):
    # Written out (RoiAlign's 'max' is another maximum): the same samples
    # and weights in the same order, so the same numbers; a RoI outside
    # the map gives -inf, as Chainer's.
    rois = numpy.concatenate([_ROIS, [[-5, -5, -3, -2]]]).astype('f')
    indices = numpy.append(_ROI_INDICES, 0).astype(numpy.int32)
    model = Fn(lambda x, r, i: F.roi_max_align_2d(
        x, r, i, (3, 4), scale, sampling_ratio))
    check(model, (rand(2, 3, 12, 10), rois, indices),
          opsets=(11, 16, LATEST), since=11, rtol=0, atol=0)


def test_roi_average_align_2d_two_ratios():
    # RoiAlign has one sampling_ratio: written out too.
    model = Fn(lambda x, r, i: F.roi_average_align_2d(
        x, r, i, (3, 4), 0.6, (1, 3)))
    check(model, (rand(2, 3, 12, 10), _ROIS, _ROI_INDICES),
          opsets=(11, LATEST), since=11)


@pytest.mark.parametrize('sampling_ratio,opset,match', [
    (None, 16, 'give sampling_ratio'),
    (2, 10, 'opset 11'),
])
def test_roi_max_align_2d_refused(sampling_ratio, opset, match):
    import onnx_chainer
    model = Fn(lambda x, r, i: F.roi_max_align_2d(x, r, i, 2, 1.0,
                                                  sampling_ratio))
    with pytest.raises(ValueError, match=match):
        onnx_chainer.export(model, (rand(1, 2, 6, 6), _ROIS[:1],
                                    _ROI_INDICES[:1]), opset_version=opset)


@pytest.mark.parametrize('ksize,stride,pad,cover_all,since', [
    (2, 2, 0, False, 9),    # SegNet's: a MaxUnpool
    (3, 3, 0, True, 9),     # cover_all's extra row cut off: a MaxUnpool
    (3, 2, 1, True, 16),    # windows overlap and reach into the padding
])
def test_upsampling_2d(ksize, stride, pad, cover_all, since):
    x = rand(2, 3, 8, 6)
    y, indexes = F.max_pooling_2d(x, ksize, stride, pad, cover_all,
                                  return_indices=True)
    model = Fn(lambda y: F.upsampling_2d(
        y, indexes, ksize, stride, pad, x.shape[2:], cover_all))
    onnx_model = check(model, y.array, opsets=(since, 11, 16, LATEST),
                       since=since)
    if since == 16:
        import onnx_chainer
        with pytest.raises(ValueError, match='opset 16'):
            onnx_chainer.export(model, y.array, opset_version=15)
    else:
        assert 'MaxUnpool' in {n.op_type for n in onnx_model.graph.node}
