import importlib.util
import os

import numpy
import pytest

import chainer
import chainer.functions as F
from op_harness import check_op


def _load(name):
    path = os.path.join(os.path.dirname(__file__), name + '.py')
    spec = importlib.util.spec_from_file_location('_ref_' + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


conv_ref = _load('test_convolution_2d').conv_ref
deconv_ref = _load('test_deconvolution_2d').deconv_ref

F16_TOL = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}
F16_BWD = {numpy.float16: dict(atol=1e-1, rtol=1e-1)}


@pytest.mark.parametrize('func,shape,wshape,kw', [
    (F.convolution_1d, (2, 3, 7), (4, 3, 3), dict(stride=2, pad=1,
                                                  cover_all=True)),
    (F.convolution_3d, (1, 2, 4, 3, 5), (4, 1, 2, 2, 3),
     dict(stride=(1, 2, 1), pad=(1, 0, 1), groups=2)),
    (F.convolution_nd, (2, 2, 5, 4), (3, 2, 2, 2), dict(dilate=(1, 2))),
])
def test_convolution_nd(func, shape, wshape, kw):
    def make(rng, dt):
        return (rng.uniform(-1, 1, shape).astype(dt),
                rng.uniform(-1, 1, wshape).astype(dt),
                rng.uniform(-1, 1, wshape[:1]).astype(dt))

    check_op(lambda x, W, b: func(x, W, b, **kw), make,
             lambda x, W, b: conv_ref(x, W, b, **kw), fwd_tol=F16_TOL,
             bwd_tol=F16_BWD)


@pytest.mark.parametrize('func,shape,wshape,kw', [
    (F.deconvolution_1d, (2, 3, 4), (3, 2, 3), dict(stride=2, pad=1)),
    (F.deconvolution_3d, (1, 2, 2, 3, 2), (2, 2, 2, 1, 2),
     dict(stride=(2, 1, 2), outsize=(5, 3, 5), groups=2)),
    (F.deconvolution_nd, (1, 2, 3, 3), (2, 2, 2, 2), dict(dilate=2)),
])
def test_deconvolution_nd(func, shape, wshape, kw):
    groups = kw.get('groups', 1)

    def make(rng, dt):
        return (rng.uniform(-1, 1, shape).astype(dt),
                rng.uniform(-1, 1, wshape).astype(dt),
                rng.uniform(-1, 1, (wshape[1] * groups,)).astype(dt))

    check_op(lambda x, W, b: func(x, W, b, **kw), make,
             lambda x, W, b: deconv_ref(x, W, b, **kw), fwd_tol=F16_TOL,
             bwd_tol=F16_BWD)


def test_creators():
    x = numpy.ones((1, 2, 3, 3, 3), numpy.float32)
    y = F.convolution_3d(x, numpy.ones((2, 2, 2, 2, 2), numpy.float32))
    assert type(y.creator).__name__ == 'ConvolutionND'
    y = F.deconvolution_3d(x, numpy.ones((2, 2, 2, 2, 2), numpy.float32))
    assert type(y.creator).__name__ == 'DeconvolutionND'


def test_wrong_ndim():
    x = numpy.ones((1, 2, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match='dimensions'):
        F.convolution_1d(x, numpy.ones((2, 2, 2, 2), numpy.float32))
    with pytest.raises(ValueError, match='dimensions'):
        F.deconvolution_3d(x, numpy.ones((2, 2, 2, 2), numpy.float32))


@pytest.mark.parametrize('deconv', [False, True])
@pytest.mark.parametrize('xd,bd', [(numpy.float64, numpy.float32),
                                   (numpy.float32, numpy.float64)])
def test_nd_bias_of_another_dtype(deconv, xd, bd):
    # Chainer checks the bias dtype of the 2-d functions only: an N-d one
    # gives x's dtype, and each gradient its input's (numbers from Chainer
    # 7.8.1's run of the same)
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.rand(1, 2, 4, 4, 4).astype(xd))
    W = rng.rand(3, 2, 2, 2, 2).astype(numpy.float32)
    if deconv:
        W = W.reshape(2, 3, 2, 2, 2)
    W = chainer.Variable(W)
    b = chainer.Variable(rng.rand(3).astype(bd))
    y = (F.deconvolution_nd if deconv else F.convolution_nd)(x, W, b)
    assert y.dtype == xd
    y_ref = (F.deconvolution_nd if deconv else F.convolution_nd)(
        x.array.astype(numpy.float64), W.array.astype(numpy.float64),
        b.array.astype(numpy.float64))
    numpy.testing.assert_allclose(y.array, y_ref.array, rtol=1e-5)
    F.sum(y).backward()
    assert (x.grad.dtype, W.grad.dtype, b.grad.dtype) == (
        xd, numpy.float32, bd)
    n_out = 5 ** 3 if deconv else 3 ** 3
    numpy.testing.assert_allclose(b.grad, numpy.full(3, n_out), rtol=1e-6)
    with pytest.raises(chainer.utils.type_check.InvalidType,
                       match=r'in_types\[2\]\.dtype == in_types\[0\]\.dtype'):
        (F.deconvolution_2d if deconv else F.convolution_2d)(
            x.array[:, :, 0], W.array[:, :, 0], b.array)
