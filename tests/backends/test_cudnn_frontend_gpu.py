"""The cuDNN Frontend graphs against the CuPy kernels, on a GPU with the
frontend installed (marked gpu and cudnn): the same numbers to tolerance for
every convolution geometry and batch normalization mode, and the plan
options (deterministic, autotune) change nothing but the plan."""

import numpy
import pytest

import chainer
from chainer import testing
from chainer.backends import _cudnn_frontend as fe
from chainer.backends import cuda
from chainer.functions.connection import _conv
from chainer.utils import conv

pytestmark = [pytest.mark.gpu, pytest.mark.cudnn, pytest.mark.skipif(
    not cuda.cudnn_enabled, reason='needs the cuDNN Frontend')]

FLOATS = (numpy.float16, numpy.float32, numpy.float64)
TOL = {numpy.float16: dict(atol=5e-2, rtol=5e-2),
       numpy.float32: dict(atol=1e-4, rtol=1e-4),
       numpy.float64: dict(atol=1e-10, rtol=1e-10)}
# (channels in, out, ksize, stride, pad, dilate, groups, cover_all)
GEOMETRIES = [
    (3, 4, (3, 3), (1, 1), (1, 1), (1, 1), 1, False),
    (4, 6, (3, 2), (2, 1), (1, 0), (1, 1), 2, False),
    (4, 4, (3, 3), (2, 2), (1, 1), (2, 2), 4, False),  # depthwise, dilated
    (3, 5, (3, 3), (2, 2), (1, 1), (1, 1), 1, True),  # cover_all
]


def _arrays(dtype, c, o, ksize, groups, size=(9, 8)):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, c) + size).astype(dtype)
    W = rng.uniform(-1, 1, (o, c // groups) + ksize).astype(dtype)
    b = rng.uniform(-1, 1, o).astype(dtype)
    return [cuda.to_gpu(a) for a in (x, W, b)]


def _cupy(f, *args):
    with chainer.using_config('use_cudnn', 'never'):
        return f(*args)


@pytest.mark.parametrize('geometry', GEOMETRIES)
@pytest.mark.parametrize('dtype', FLOATS)
def test_convolutions_match_cupy(dtype, geometry):
    c, o, ksize, stride, pad, dilate, groups, cover_all = geometry
    x, W, b = _arrays(dtype, c, o, ksize, groups)
    outs = tuple(conv.get_conv_outsize(n, k, s, p, cover_all, d)
                 for n, k, s, p, d in zip(x.shape[2:], ksize, stride, pad,
                                          dilate))
    with chainer.using_config('use_cudnn', 'always'):
        y = fe.convolution(x, W, b, stride, pad, dilate, outs)
    want = _cupy(_conv.conv_forward, x, W, b, stride, pad, dilate, groups,
                 cover_all)
    if y is None:
        pytest.skip('cuDNN declined this geometry for {}'.format(dtype))
    testing.assert_allclose(y, want, **TOL[dtype])

    gy = cuda.cupy.asarray(numpy.random.RandomState(1).uniform(
        -1, 1, want.shape).astype(dtype))
    gW = fe.convolution_filter_grad(x, gy, ksize, stride, pad, dilate,
                                    groups)
    testing.assert_allclose(gW, _cupy(_conv.conv_grad_w, x, gy, ksize,
                                      stride, pad, dilate, groups),
                            **TOL[dtype])
    gx = fe.deconvolution(gy, W, None, stride, pad, dilate, x.shape[2:],
                          groups)
    testing.assert_allclose(gx, _cupy(_conv.deconv_forward, gy, W, None,
                                      stride, pad, x.shape[2:], dilate,
                                      groups), **TOL[dtype])


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('shape', [(8, 3), (4, 3, 5, 5), (2, 3, 3, 4, 2)])
def test_batch_normalization_matches_cupy(dtype, shape):
    rng = numpy.random.RandomState(0)
    x = cuda.to_gpu(rng.uniform(-1, 1, shape).astype(dtype))
    gamma = cuda.to_gpu(rng.uniform(0.5, 1.5, 3).astype(dtype))
    beta = cuda.to_gpu(rng.uniform(-1, 1, 3).astype(dtype))
    gy = cuda.to_gpu(rng.uniform(-1, 1, shape).astype(dtype))
    stats = [cuda.cupy.zeros(3, dtype), cuda.cupy.ones(3, dtype)]
    got = fe.batch_normalization(x, gamma, beta, 2e-5, *stats, decay=0.9)
    if got is None:
        pytest.skip('cuDNN declined batch normalization for {}'.format(dtype))
    want_stats = [cuda.cupy.zeros(3, dtype), cuda.cupy.ones(3, dtype)]
    with chainer.using_config('use_cudnn', 'never'):
        xv, gv, bv = (chainer.Variable(a) for a in (x, gamma, beta))
        y = chainer.functions.batch_normalization(
            xv, gv, bv, eps=2e-5, running_mean=want_stats[0],
            running_var=want_stats[1], decay=0.9)
        y.grad = gy
        y.backward()
    testing.assert_allclose(got[0], y.array, **TOL[dtype])
    for s, w in zip(stats, want_stats):
        testing.assert_allclose(s, w, **TOL[dtype])
    gx, ggamma, gbeta = fe.batch_normalization_grad(x, gamma, got[1],
                                                    got[2], gy)
    testing.assert_allclose(gx, xv.grad, **TOL[dtype])
    testing.assert_allclose(ggamma, gv.grad, **TOL[dtype])
    testing.assert_allclose(gbeta, bv.grad, **TOL[dtype])

    mean, var = (cuda.to_gpu(rng.uniform(0.5, 1, 3).astype(dtype))
                 for _ in range(2))
    fixed = fe.fixed_batch_normalization(x, gamma, beta, mean, var, 2e-5)
    with chainer.using_config('use_cudnn', 'never'):
        want = chainer.functions.fixed_batch_normalization(
            x, gamma, beta, mean, var, eps=2e-5)
    testing.assert_allclose(fixed, want.array, **TOL[dtype])


@pytest.mark.parametrize('config', [('cudnn_deterministic', True),
                                    ('autotune', True)])
def test_plan_options_change_no_numbers(config):
    x, W, b = _arrays(numpy.float32, 3, 4, (3, 3), 1)
    args = (x, W, b, (1, 1), (1, 1), (1, 1), (9, 8))
    with chainer.using_config('use_cudnn', 'always'):
        want = fe.convolution(*args)
        with chainer.using_config(*config):
            got = fe.convolution(*args)
            again = fe.convolution(*args)  # the cached (tuned) plan
    testing.assert_allclose(got, want, atol=1e-4, rtol=1e-4)
    testing.assert_allclose(again, got, atol=0, rtol=0)
