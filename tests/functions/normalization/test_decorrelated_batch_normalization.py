import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# Computed with Chainer 7.8.1 (x = RandomState(5).randn(6, 4), groups=2).
DBN_Y = [[1.02774867, -1.03895499, 2.18925381, 0.10406139],
 [-0.54530816, 1.32721417, -0.21858769, -0.78028448],
 [0.55325675, -0.9114394, -0.40953368, 0.09467995],
 [-0.93298553, 0.43444452, -0.76430294, -1.05287762],
 [1.26471649, 1.12432224, -0.61052297, 2.026863],
 [-1.36742822, -0.93558654, -0.18630653, -0.39244223]]
DBN_RM = [[0.00917325, 0.04209484], [-0.06198455, -0.02544075]]
DBN_RP = [[[1.12426573, -0.05978847], [-0.05978847, 1.03803706]],
 [[0.98611421, 0.00388519], [0.00388519, 1.17432327]]]
DBN_GX = [[-0.9882709, -0.56059803, 0.00508797, -0.70725755],
 [-0.73025788, -0.36201009, -0.5984141, -1.09238379],
 [-0.17092785, -0.10160056, -0.23240676, -0.68477457],
 [-0.00734245, 0.11963274, -0.28584201, 0.27360549],
 [1.25327838, 0.29115978, 0.58583217, 0.18267467],
 [0.6435207, 0.61341615, 0.52574272, 2.02813575]]


def _zca_ref(x, groups, eps=2e-5):
    n, c = x.shape[:2]
    xg = numpy.moveaxis(x, 1, 0).reshape(groups, c // groups, -1)
    xc = xg - xg.mean(axis=2, keepdims=True)
    cov = xc @ xc.transpose(0, 2, 1) / xc.shape[2] + eps * numpy.eye(
        c // groups)
    w, u = numpy.linalg.eigh(cov)
    proj = numpy.einsum('gij,gj,gkj->gik', u, 1 / numpy.sqrt(w), u)
    y = (proj @ xc).reshape((c, n) + x.shape[2:])
    return numpy.moveaxis(y, 0, 1)


@pytest.mark.parametrize('shape,groups', [((6, 4), 2), ((4, 4, 2), 1),
                                          ((3, 2, 1, 2), 2)])
def test_decorrelated_batch_normalization(shape, groups):
    def make(rng, dt):
        return rng.randn(*shape).astype(dt),

    check_op(lambda x: F.decorrelated_batch_normalization(x, groups=groups),
             make, lambda x: _zca_ref(x, groups), double_backward=False,
             fwd_tol={numpy.float16: dict(atol=2e-2, rtol=2e-2)},
             bwd_tol={numpy.float16: dict(atol=2e-1, rtol=2e-1),
                      numpy.float32: dict(atol=5e-3, rtol=5e-3)})


def test_reference_values_and_running_statistics():
    x = numpy.random.RandomState(5).randn(6, 4)
    rm = numpy.zeros((2, 2))
    rp = numpy.stack([numpy.eye(2)] * 2)
    xv = chainer.Variable(x)
    y = F.decorrelated_batch_normalization(
        xv, groups=2, running_mean=rm, running_projection=rp)
    assert y.creator.label == 'DecorrelatedBatchNormalization'
    testing.assert_allclose(y.array, DBN_Y, atol=1e-7)
    testing.assert_allclose(rm, DBN_RM, atol=1e-7)
    testing.assert_allclose(rp, DBN_RP, atol=1e-7)
    y.grad = numpy.linspace(-1, 1, 24).reshape(6, 4)
    y.backward()
    testing.assert_allclose(xv.grad, DBN_GX, atol=1e-7)


def test_no_double_backprop():
    x = chainer.Variable(numpy.random.RandomState(1).randn(5, 2))
    y = F.decorrelated_batch_normalization(x, groups=1)
    gx, = chainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='Double backward'):
        chainer.grad([F.sum(gx * gx)], [x])


def test_errors():
    x = numpy.ones((4, 6), 'f')
    with pytest.raises(InvalidType, match='% 4 == 0'):
        F.decorrelated_batch_normalization(x, groups=4)
    with pytest.raises(InvalidType, match='x.ndim >= 2'):
        F.decorrelated_batch_normalization(x[0], groups=1)
    with pytest.raises(TypeError, match="unexpected keyword argument.*'train'"):
        F.decorrelated_batch_normalization(x, groups=2, train=True)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.decorrelated_batch_normalization(x.astype('i'), groups=2)


def test_fixed_decorrelated_batch_normalization():
    def make(rng, dt):
        return (rng.randn(3, 4, 2).astype(dt), rng.randn(2, 2).astype(dt),
                rng.randn(2, 2, 2).astype(dt))

    def ref(x, mean, proj):
        xg = numpy.moveaxis(x, 1, 0).reshape(2, 2, -1) - mean[:, :, None]
        return numpy.moveaxis((proj @ xg).reshape(4, 3, 2), 0, 1)

    check_op(lambda x, m, p: F.fixed_decorrelated_batch_normalization(
        x, m, p, groups=2), make, ref,
        bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_fixed_errors():
    x = numpy.ones((2, 4), 'f')
    with pytest.raises(InvalidType, match='mean.shape'):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros(4, 'f'), numpy.zeros((2, 2, 2), 'f'), groups=2)
    with pytest.raises(InvalidType, match='projection.shape'):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros((2, 2), 'f'), numpy.zeros((2, 2), 'f'), groups=2)


def test_gradient_with_degenerate_eigenvalues():
    # Two channels with the same variance and no correlation.
    x = numpy.array([[1., 0.], [-1., 0.], [0., 1.], [0., -1.]])
    gy = numpy.random.RandomState(0).randn(4, 2)
    gradient_check.check_backward(
        lambda x: F.decorrelated_batch_normalization(x, groups=1), (x,), gy,
        dtype=numpy.float64, atol=1e-5, rtol=1e-5)
