import numpy
import pytest

import chainer.functions as F
from onnx_harness import Fn, check, rand

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
