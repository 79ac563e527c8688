import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _gn_ref(x, groups, g, b, eps=1e-5):
    n, c = x.shape[:2]
    xg = x.reshape(n, groups, -1)
    xh = (xg - xg.mean(axis=2, keepdims=True)) / numpy.sqrt(
        xg.var(axis=2, keepdims=True) + eps)
    bshape = (1, c) + (1,) * (x.ndim - 2)
    return xh.reshape(x.shape) * g.reshape(bshape) + b.reshape(bshape)


@pytest.mark.parametrize('shape,groups', [((2, 4, 3), 2), ((3, 4), 2),
                                          ((1, 6, 2, 2), 3), ((2, 2), 1)])
def test_group_normalization(shape, groups):
    c = shape[1]

    def make(rng, dt):
        return (rng.randn(*shape).astype(dt),
                rng.uniform(0.5, 1.5, c).astype(dt), rng.randn(c).astype(dt))

    check_op(lambda x, g, b: F.group_normalization(x, groups, g, b), make,
             lambda x, g, b: _gn_ref(x, groups, g, b),
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_empty_batch_and_creator():
    y = F.group_normalization(numpy.zeros((0, 4), 'f'), 2, numpy.ones(4, 'f'),
                              numpy.zeros(4, 'f'))
    assert y.shape == (0, 4)
    x = chainer.Variable(numpy.ones((1, 2), 'f'))
    y = F.group_normalization(x, 1, numpy.ones(2, 'f'), numpy.zeros(2, 'f'))
    assert y.creator.label == 'GroupNormalization'


def test_errors():
    x = numpy.ones((2, 4, 3), 'f')
    g = numpy.ones(4, 'f')
    with pytest.raises(ValueError, match='not divisible'):
        F.group_normalization(x, 3, g, g)
    with pytest.raises(TypeError, match="'groups' type must be"):
        F.group_normalization(x, 2.0, g, g)
    with pytest.raises(ValueError, match='positive'):
        F.group_normalization(x, 0, g, g)
    with pytest.raises(InvalidType, match='shape'):
        F.group_normalization(x, 2, g[:3], g[:3])
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.group_normalization(x.astype('i'), 2, g, g)


def test_mul_inv_std():
    # Chainer's private piece: z = y / sqrt(var(x, axis=1) + eps), to
    # second order in both inputs.
    from chainer.functions.normalization import group_normalization as gn
    eps = 0.1

    def func(x, y):
        xa = x.array if isinstance(x, chainer.Variable) else x
        mean = xa.mean(axis=1)
        inv_std = (xa.var(axis=1) + eps) ** -0.5
        return gn._MulInvStd(eps, mean, inv_std, None).apply((x, y))[0]

    check_op(func,
             lambda rng, dt: (rng.uniform(-1, 1, (4, 5)).astype(dt),
                              rng.uniform(-1, 1, (4, 5)).astype(dt)),
             lambda x, y: y / numpy.sqrt(x.var(axis=1, keepdims=True) + eps),
             bwd_tol={numpy.float16: dict(atol=5e-2, rtol=5e-2)})


def test_float16_steps_in_float16_as_chainer():
    # x and gamma float16: Chainer 7.8.1 normalizes in float16 (its digits)
    numpy.random.seed(0)
    x = (numpy.random.randn(2, 4, 3, 3) * 3).astype(numpy.float16)
    g = numpy.linspace(0.5, 1.5, 4).astype(numpy.float16)
    b = numpy.linspace(-1, 1, 4).astype(numpy.float16)
    y = F.group_normalization(x, 2, g, b)
    assert y.dtype == numpy.float16
    assert y.array[0, :, 0].tolist() == [
        [-0.3310546875, -1.1591796875, -0.80810546875],
        [-0.5888671875, -0.8583984375, 0.468017578125],
        [0.70166015625, -0.435302734375, -2.091796875],
        [0.84716796875, 3.0, 2.919921875]]
