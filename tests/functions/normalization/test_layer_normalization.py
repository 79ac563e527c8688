import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ln_ref(x, g, b, eps=1e-5):
    return (x - x.mean(axis=1, keepdims=True)) / numpy.sqrt(
        x.var(axis=1, keepdims=True) + eps) * g + b


@pytest.mark.parametrize('shape', [(3, 4), (1, 2)])
def test_layer_normalization(shape):
    def make(rng, dt):
        return (rng.randn(*shape).astype(dt),
                rng.uniform(0.5, 1.5, shape[1]).astype(dt),
                rng.randn(shape[1]).astype(dt))

    check_op(F.layer_normalization, make, _ln_ref,
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_eps_and_creator():
    x = numpy.array([[1., 3.]])
    y = F.layer_normalization(x, numpy.ones(2), numpy.zeros(2), eps=3.)
    numpy.testing.assert_allclose(y.array, [[-0.5, 0.5]])
    assert y.creator.label == 'LayerNormalization'
    y = F.layer_normalization(numpy.zeros((0, 2)), numpy.ones(2),
                              numpy.zeros(2))
    assert y.shape == (0, 2)


def test_errors():
    x = numpy.ones((3, 4), 'f')
    g = numpy.ones(4, 'f')
    with pytest.raises(InvalidType, match='x.ndim == 2'):
        F.layer_normalization(numpy.ones((3, 4, 2), 'f'), g, g)
    with pytest.raises(InvalidType, match='x.ndim == 2'):
        F.layer_normalization(g, g, g)
    with pytest.raises(InvalidType, match='gamma.dtype == x.dtype'):
        F.layer_normalization(x, g.astype('d'), g)
    with pytest.raises(ValueError, match='gamma must have the shape'):
        F.layer_normalization(x, g[:3], g[:3])
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.layer_normalization(x.astype('i'), g, g)


def test_double_backprop_graph():
    x = chainer.Variable(numpy.random.RandomState(0).randn(2, 3))
    y = F.layer_normalization(x, numpy.ones(3), numpy.zeros(3))
    gx, = chainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    assert gx.creator is not None


def test_gradients_round_as_chainer():
    # Chainer 7.8.1's bits: its backward is the chain rule step by step.
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(2, 4).astype(numpy.float32))
    g = chainer.Variable(rs.randn(4).astype(numpy.float32))
    b = chainer.Variable(rs.randn(4).astype(numpy.float32))
    y = F.layer_normalization(x, g, b)
    y.grad = rs.randn(2, 4).astype(numpy.float32)
    y.backward()
    assert x.grad.tolist() == [
        [0.6168038249015808, -0.3535831570625305, 0.28266531229019165,
         -0.5458859801292419],
        [0.14367055892944336, 0.5390831828117371, 0.1408936083316803,
         -0.8236473202705383]]
    assert g.grad.tolist() == [-2.538041353225708, -0.5738774538040161,
                               0.26057302951812744, -0.6849632859230042]
    assert b.grad.tolist() == [-1.058910608291626, 0.44846031069755554,
                               1.1775039434432983, -1.5962607860565186]


def test_float16_steps_in_float16_as_chainer():
    # Chainer 7.8.1's digits: mean, variance and 1 / std kept in float16
    numpy.random.seed(0)
    x = (numpy.random.randn(4, 6) * 3).astype(numpy.float16)
    y = F.layer_normalization(x, numpy.ones(6, numpy.float16),
                              numpy.zeros(6, numpy.float16))
    assert y.dtype == numpy.float16
    assert y.array[0].tolist() == [
        0.6591796875, -0.591796875, -0.061492919921875, 1.095703125,
        0.75341796875, -1.85546875]


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype checks are type checks; with them off gamma's
    # and beta's dtypes promote
    x = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    g = numpy.array([1.1, 0.4, -0.35], numpy.float32)
    b = numpy.array([0.9, -0.2, 0.45])
    with pytest.raises(InvalidType, match='gamma.dtype == x.dtype'):
        F.layer_normalization(x, g, b)
    with chainer.using_config('type_check', False):
        y = F.layer_normalization(x, g, b)
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, [[
        0.9232971198856831, -0.6945312440395355, 0.02480469346046449]],
        rtol=1e-15)
