import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from onnx_harness import LATEST, Fn, check, rand

CASES = {
    'conv2d': (lambda: L.Convolution2D(3, 4, 3, pad=1), (2, 3, 5, 6)),
    'conv2d_stride_nobias': (
        lambda: L.Convolution2D(3, 4, (3, 2), stride=(2, 1), nobias=True),
        (2, 3, 7, 6)),
    'conv2d_groups_dilate': (
        lambda: L.Convolution2D(4, 6, 3, pad=2, dilate=2, groups=2),
        (1, 4, 7, 7)),
    'dilated_conv2d': (lambda: L.DilatedConvolution2D(3, 4, 3, pad=1,
                                                      dilate=2),
                       (1, 3, 6, 6)),
    'depthwise_conv2d': (lambda: L.DepthwiseConvolution2D(3, 2, 3),
                         (1, 3, 5, 5)),
    'conv1d': (lambda: L.Convolution1D(3, 2, 3, pad=1), (2, 3, 7)),
    'conv3d': (lambda: L.ConvolutionND(3, 2, 3, 2, stride=2, groups=1),
               (1, 2, 4, 5, 4)),
    'convnd_groups': (lambda: L.ConvolutionND(3, 4, 2, 3, groups=2),
                      (1, 4, 4, 4, 4)),
    'deconv2d': (lambda: L.Deconvolution2D(3, 4, 4, stride=2, pad=1),
                 (1, 3, 4, 5)),
    'deconv2d_groups': (lambda: L.Deconvolution2D(4, 6, 2, stride=2,
                                                  groups=2, nobias=True),
                        (1, 4, 3, 3)),
    'deconv2d_outsize': (lambda: L.Deconvolution2D(3, 2, 3, stride=2, pad=1,
                                                   outsize=(8, 10)),
                         (1, 3, 4, 5)),
    'deconv2d_dilate': (lambda: L.Deconvolution2D(3, 2, 3, dilate=2),
                        (1, 3, 4, 4)),
    'deconvnd': (lambda: L.DeconvolutionND(3, 2, 3, 2, stride=2),
                 (1, 2, 3, 3, 2)),
    'linear': (lambda: L.Linear(6, 4), (3, 6)),
    'linear_nobias': (lambda: L.Linear(6, 4, nobias=True), (3, 6)),
    'linear_flatten': (lambda: L.Linear(None, 4), (2, 3, 2, 2)),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_link(name):
    make, shape = CASES[name]
    link = make()
    for param in link.params(include_uninit=False):
        param.array[...] = numpy.random.uniform(-1, 1, param.shape)
    check(Fn(lambda m, x: m.l(x), l=link), rand(*shape), atol=1e-5)


def test_linear_function_arrays():
    # Arrays given to F.linear are initializers named by their role.
    w, b = rand(4, 6), rand(4)
    m = check(Fn(lambda x: F.linear(x, w, b)), rand(3, 6))
    assert [t.name for t in m.graph.initializer] == [
        'LinearFunction_0_param_W', 'LinearFunction_0_param_b']


@pytest.mark.parametrize('shape', [(1, 3, 6, 6), (1, 3, 7, 8)])
def test_convolution_cover_all(shape):
    w, b = rand(2, 3, 3, 3), rand(2)
    check(Fn(lambda x: F.convolution_2d(x, w, b, stride=2, cover_all=True)),
          rand(*shape), atol=1e-5)


def test_embed_id():
    model = Fn(lambda m, x: m.embed(x), embed=L.EmbedID(5, 3))
    check(model, numpy.array([[0, 4, 2], [1, 1, 3]], numpy.int32))


def test_embed_id_ignore_label():
    model = Fn(lambda m, x: m.embed(x),
               embed=L.EmbedID(5, 3, ignore_label=-1))
    check(model, numpy.array([0, -1, 4, -1], numpy.int32), since=9)


@pytest.mark.parametrize('nobias', [False, True])
def test_bilinear(nobias):
    link = L.Bilinear(3, 4, 5, nobias=nobias)
    # e1 with more axes is flattened to (B, J), as Chainer does.
    model = Fn(lambda self, e1, e2: self.l(e1, e2), l=link)
    check(model, (rand(2, 3), rand(2, 2, 2)), opsets=(7, 13, LATEST))
