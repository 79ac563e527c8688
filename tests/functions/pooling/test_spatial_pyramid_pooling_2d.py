import math

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# F.spatial_pyramid_pooling_2d(x, 3, 'max') of Chainer 7.8.1 on
# RandomState(4).randn(1, 2, 5, 3) (float32), flattened.
CHAINER_OUT = [
    0.693599, 2.22336, 0.693599, 0.33225, 0.61867, -0.087987, 0.723342,
    1.546979, 2.22336, 1.692358, 0.050562, 0.499951, -0.995909, 0.693599,
    0.598575, 0.33225, 0.425072, 0.61867, -0.087987, -numpy.inf, -numpy.inf,
    -numpy.inf, 0.350997, -0.606887, 1.546979, 0.723342, 0.159893, -0.982992,
    2.22336, 1.635748, 1.692358, -numpy.inf, -numpy.inf, -numpy.inf]


def spp_ref(x, height):
    n, c, h, w = x.shape
    levels = []
    for level in range(height):
        bins = 2 ** level
        k = (math.ceil(h / bins), math.ceil(w / bins))
        p = ((k[0] * bins - h) // 2, (k[1] * bins - w) // 2)
        # Windows of stride k from -p, as many as cover the input.
        outs = [(d + 2 * pp - 1) // kk + 1 for d, pp, kk in zip((h, w), p, k)]
        y = numpy.full((n, c) + tuple(outs), -numpy.inf)
        for i in range(outs[0]):
            for j in range(outs[1]):
                y0, x0 = max(i * k[0] - p[0], 0), max(j * k[1] - p[1], 0)
                y1, x1 = i * k[0] - p[0] + k[0], j * k[1] - p[1] + k[1]
                win = x[:, :, y0:max(y1, 0), x0:max(x1, 0)]
                if win.size:
                    y[:, :, i, j] = win.max(axis=(2, 3))
        levels.append(y.reshape(n, -1, 1, 1))
    return numpy.concatenate(levels, axis=1)


def distinct(rng, shape, dt):
    x = rng.permutation(numpy.prod(shape)).reshape(shape) * 0.5
    return (x - x.mean()).astype(dt)


@pytest.mark.parametrize('shape,height', [
    ((2, 2, 4, 4), 3),    # bins divide the input: 1 + 4 + 16 per channel
    ((1, 2, 5, 6), 2),    # padded windows
])
def test_spatial_pyramid_pooling_2d(shape, height):
    check_op(lambda x: F.spatial_pyramid_pooling_2d(x, height, 'max'),
             lambda rng, dt: (distinct(rng, shape, dt),),
             lambda x: spp_ref(x, height), eps=1e-3)


def test_matches_chainer():
    x = numpy.random.RandomState(4).randn(1, 2, 5, 3).astype(numpy.float32)
    y = F.spatial_pyramid_pooling_2d(x, 3, 'max')
    assert y.shape == (1, 34, 1, 1)
    numpy.testing.assert_allclose(y.array.ravel(), CHAINER_OUT, atol=1e-6)
    numpy.testing.assert_allclose(y.array, spp_ref(x, 3), atol=1e-6)


def test_gradient_to_maxima():
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    F.sum(F.spatial_pyramid_pooling_2d(x, 2, 'max')).backward()
    # Level 0 picks 15; level 1 picks 5, 7, 13 and 15.
    assert x.grad.ravel()[[5, 7, 13, 15]].tolist() == [1, 1, 1, 2]
    assert x.grad.sum() == 5


def test_errors():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match='Unsupported pooling'):
        F.spatial_pyramid_pooling_2d(x, 2)
    with pytest.raises(ValueError, match='Unsupported pooling'):
        F.spatial_pyramid_pooling_2d(x, 2, 'average')
    with pytest.raises(InvalidType, match='pyramid_height >= 1'):
        F.spatial_pyramid_pooling_2d(x, 0, 'max')
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.spatial_pyramid_pooling_2d(x[0], 2, 'max')
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.spatial_pyramid_pooling_2d(x.astype(numpy.int32), 2, 'max')
