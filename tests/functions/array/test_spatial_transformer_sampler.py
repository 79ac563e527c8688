import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(x, grid):
    n, c, h, w = x.shape
    out = numpy.zeros((n, c) + grid.shape[2:])
    for b in range(n):
        for i in range(grid.shape[2]):
            for j in range(grid.shape[3]):
                u = (grid[b, 0, i, j] + 1) * (w - 1) / 2
                v = (grid[b, 1, i, j] + 1) * (h - 1) / 2
                u0, v0 = int(numpy.floor(u)), int(numpy.floor(v))
                for vv in (v0, v0 + 1):
                    for uu in (u0, u0 + 1):
                        if 0 <= vv < h and 0 <= uu < w:
                            wt = (1 - abs(u - uu)) * (1 - abs(v - vv))
                            out[b, :, i, j] += wt * x[b, :, vv, uu]
    return out


def _inputs(rng, dt):
    x = rng.randn(2, 2, 3, 4).astype(dt)
    # Points inside and outside the image, kept off the pixel lines (where
    # the sampling is not differentiable).
    grid = rng.uniform(-1.3, 1.3, (2, 2, 2, 3))
    u = (grid[:, 0] + 1) * 1.5
    v = (grid[:, 1] + 1) * 1.0
    grid[:, 0] += 0.2 * (numpy.abs(u - numpy.round(u)) < 0.1)
    grid[:, 1] += 0.2 * (numpy.abs(v - numpy.round(v)) < 0.1)
    return x, grid.astype(dt)


def test_spatial_transformer_sampler():
    check_op(F.spatial_transformer_sampler, _inputs, _ref,
             double_backward=False,
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_spatial_transformer_sampler_values():
    x = numpy.arange(12, dtype=numpy.float32).reshape(1, 1, 3, 4)
    grid = numpy.array([-1, 1, 0, 0.5, 1.2, -1.1, 0.3, 0.99, -0.7, 0, 1, -1],
                       numpy.float32).reshape(1, 2, 2, 3)
    y = F.spatial_transformer_sampler(x, grid)
    assert type(y.creator).__name__ == 'SpatialTransformerSampler'
    numpy.testing.assert_allclose(y.array[0, 0], [[5.2, 10.96, 2.7],
                                                  [6.25, 7.7, 0.]],
                                  rtol=1e-5)


def test_spatial_transformer_sampler_no_double_backprop():
    x = chainer.Variable(numpy.ones((1, 1, 2, 2), numpy.float32))
    g = chainer.Variable(numpy.full((1, 2, 1, 1), 0.3, numpy.float32))
    y = F.spatial_transformer_sampler(x, g)
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='double'):
        F.sum(gx * gx).backward()


def test_spatial_transformer_sampler_errors():
    x = numpy.zeros((1, 1, 3, 4), numpy.float32)
    g = numpy.zeros((1, 2, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_sampler(x, g, use_cudnn=False)
    with pytest.raises(InvalidType, match='grid.dtype == x.dtype'):
        F.spatial_transformer_sampler(x, g.astype(numpy.float64))
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.spatial_transformer_sampler(x[0], g)
    with pytest.raises(InvalidType, match=r'grid.shape\[1\] == 2'):
        F.spatial_transformer_sampler(x, g[:, :1])
    with pytest.raises(InvalidType, match=r'x.shape\[0\]'):
        F.spatial_transformer_sampler(numpy.zeros((2, 1, 3, 4),
                                                  numpy.float32), g)


def test_forward_rounds_as_chainer():
    # Chainer 7.8.1's values: its float64 corner weights cast to x's dtype,
    # the corners summed in its order
    rs = numpy.random.RandomState(0)
    x = rs.randn(1, 2, 4, 5).astype(numpy.float32)
    g = rs.uniform(-1.3, 1.3, (1, 2, 2, 3)).astype(numpy.float32)
    y = F.spatial_transformer_sampler(x, g)
    assert y.array.ravel().tolist() == [
        0.5993054509162903, 0.5795397758483887, 0.4748550057411194,
        0.4746941328048706, 0.19470851123332977, 0.35778263211250305,
        0.43395280838012695, 0.5830045342445374, -1.1013667583465576,
        0.30772846937179565, 0.36813026666641235, -1.8613557815551758]


def test_gradients_round_as_chainer():
    # Chainer 7.8.1's values (its order of products and scatter-adds)
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(1, 2, 4, 5).astype(numpy.float32))
    g = chainer.Variable(rs.uniform(-1.3, 1.3, (1, 2, 2, 3)).astype(
        numpy.float32))
    y = F.spatial_transformer_sampler(x, g)
    F.sum(y * y.array).backward()
    assert x.grad.ravel()[:6].tolist() == [
        0.16539674997329712, 0.7726717591285706, 0.30324143171310425, 0.0,
        0.0, 0.16756761074066162]
    assert g.grad.ravel().tolist() == [
        0.0017999149858951569, 0.47498905658721924, 2.0134365558624268,
        -0.3256935477256775, -0.7533025145530701, 7.720881462097168,
        0.02631703019142151, -0.5919879674911499, -3.540764093399048,
        -0.8427674174308777, -0.45758873224258423, -4.223767280578613]


def test_mixed_dtypes_without_type_check():
    # as Chainer: the grid's dtype check is a type check; with it off the
    # samples keep x's dtype
    x = numpy.arange(16.).reshape(1, 1, 4, 4) / 7
    grid = numpy.array([[[[-.5, .3], [.2, .9]], [[.1, -.4], [.6, .7]]]],
                       numpy.float32)
    with pytest.raises(InvalidType, match='grid.dtype == x.dtype'):
        F.spatial_transformer_sampler(x, grid)
    with chainer.using_config('type_check', False):
        y = F.spatial_transformer_sampler(x, grid)
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, [[[
        [1.0500000544956754, 0.7928571701049804],
        [1.6285715103149414, 1.8642858096531458]]]], rtol=1e-15)
