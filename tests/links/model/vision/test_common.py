"""The helpers the vision models share (oversampling, predict)."""

import numpy

import chainer
import chainer.functions as F
from chainer.links.model.vision import _common, googlenet


def test_oversample_crops():
    images = numpy.arange(2 * 1 * 4 * 5, dtype='f').reshape(2, 1, 4, 5)
    crops = _common.oversample(images, (2, 3))
    assert crops.shape == (20, 1, 2, 3)
    img = images[1, 0]
    expected = [img[:2, :3], img[:2, 2:], img[2:, :3], img[2:, 2:],
                img[1:3, 1:4]]
    for j, e in enumerate(expected):
        numpy.testing.assert_array_equal(crops[10 + j, 0], e)
        numpy.testing.assert_array_equal(crops[15 + j, 0], e[:, ::-1])


class _Mean(chainer.Chain):
    # stands in for a CNN: "probabilities" from the mean of each channel

    def forward(self, x, layers=None):
        assert chainer.config.train is False
        return {'prob': F.softmax(F.mean(x, axis=(2, 3)))}


def test_predict_averages_crops():
    model = _Mean()
    image = (numpy.arange(300 * 260 * 3) % 251).reshape(300, 260, 3)
    one = _common.predict(model, [image], False, googlenet.prepare)
    ten = _common.predict(model, [image, image], True, googlenet.prepare)
    assert one.shape == (1, 3) and ten.shape == (2, 3)
    assert one.creator is None  # no graph: run without backprop
    x = googlenet.prepare(image, size=(256, 256))[None]
    crops = _common.oversample(x, (224, 224))
    expected = F.softmax(crops.mean(axis=(2, 3))).array.mean(axis=0)
    numpy.testing.assert_allclose(ten.array[1], expected, rtol=1e-5)
    centre = F.softmax(x[:, :, 16:240, 16:240].mean(axis=(2, 3))).array
    numpy.testing.assert_allclose(one.array, centre, rtol=1e-5)
