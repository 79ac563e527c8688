import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from n_step_ref import numpy_n_step, params, reference_inputs, sigmoid

# Computed with Chainer 7.8.1 (2 layers, the inputs of reference_inputs,
# dropout_ratio=0.3 in test mode); YS stacks ys[0] (2 rows) and ys[1].
GRU_HY = [[[-0.38560759, -0.24476718], [-1.00184574, 0.95011169]],
 [[-0.3762833, 0.34085751], [-1.06928101, 1.26395974]]]
GRU_YS = [[-0.60387258, 0.48053679], [-1.06928101, 1.26395974],
 [-0.3762833, 0.34085751]]
GRU_BI_HY = [[[-0.00988366, 0.25562751], [1.47840812, -0.17387292]],
 [[0.60262735, -0.35168239], [0.13209095, 1.02691529]],
 [[-0.10063915, 0.43949389], [0.0596752, -0.04309376]],
 [[0.25448006, -0.83781312], [1.37453515, -0.55949587]]]
GRU_BI_YS = [[-0.21263411, -0.56030992, 0.25448006, -0.83781312],
 [0.0596752, -0.04309376, 1.37453515, -0.55949587],
 [-0.10063915, 0.43949389, 0.15591769, -0.87175944]]


def _gru_cell(x, h, c, w, b):
    r = sigmoid(x @ w[0].T + b[0] + h @ w[3].T + b[3])
    z = sigmoid(x @ w[1].T + b[1] + h @ w[4].T + b[4])
    n = numpy.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
    return (1 - z) * n + z * h, None


@pytest.mark.parametrize('bi,hy_ref,ys_ref', [(False, GRU_HY, GRU_YS),
                                              (True, GRU_BI_HY, GRU_BI_YS)])
def test_reference_values(bi, hy_ref, ys_ref):
    hx, _, ws, bs, xs = reference_inputs(2 if bi else 1, 6)
    f = F.n_step_bigru if bi else F.n_step_gru
    with chainer.using_config('train', False):
        hy, ys = f(2, 0.3, hx, ws, bs, xs)
    testing.assert_allclose(hy.array, hy_ref, atol=1e-7)
    testing.assert_allclose(numpy.concatenate([y.array for y in ys]), ys_ref,
                            atol=1e-7)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('bi', [False, True])
def test_against_numpy(dtype, bi):
    dirs = 2 if bi else 1
    rng = numpy.random.RandomState(7)
    xs = [rng.randn(n, 3) for n in (3, 2, 2, 1)]
    ws, bs = params(rng, dirs, 6, in_size=3)
    hx = rng.randn(2 * dirs, 3, 2)
    cast = (lambda ls: [[a.astype(dtype) for a in l] for l in ls])
    hy, ys = (F.n_step_bigru if bi else F.n_step_gru)(
        2, 0., hx.astype(dtype), cast(ws), cast(bs),
        [x.astype(dtype) for x in xs])
    hy_ref, _, ys_ref = numpy_n_step(_gru_cell, 2, hx, None, ws, bs, xs,
                                      dirs)
    tol = dict(atol=2e-2, rtol=2e-2) if dtype == numpy.float16 else \
        dict(atol=1e-5, rtol=1e-5)
    assert hy.dtype == dtype and ys[0].dtype == dtype
    testing.assert_allclose(hy.array, numpy.stack(hy_ref), **tol)
    for y, e in zip(ys, ys_ref):
        testing.assert_allclose(y.array, e, **tol)


def test_gradients():
    rng = numpy.random.RandomState(8)
    xs = [rng.randn(n, 2) for n in (2, 1)]
    ws, bs = params(rng, 1, 6, n_layers=1)
    hx = rng.randn(1, 2, 2)

    def func(hx, x0, x1, w0, w5, b5):
        w = [[w0] + ws[0][1:5] + [w5]]
        b = [bs[0][:5] + [b5]]
        hy, ys = F.n_step_gru(1, 0., hx, w, b, [x0, x1])
        return (hy,) + ys

    inputs = (hx, xs[0], xs[1], ws[0][0], ws[0][5], bs[0][5])
    gys = [rng.randn(1, 2, 2), rng.randn(2, 2), rng.randn(1, 2)]
    gradient_check.check_backward(func, inputs, gys, dtype=numpy.float64,
                                  atol=1e-6, rtol=1e-6)
    ggs = [rng.randn(*a.shape) for a in inputs]
    gradient_check.check_double_backward(func, inputs, gys, ggs,
                                         dtype=numpy.float64, atol=1e-5,
                                         rtol=1e-5)


def test_errors():
    hx, _, ws, bs, xs = reference_inputs(1, 6)
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.n_step_gru(2, 0., hx, ws, bs, xs, train=True)
    with pytest.raises(TypeError, match="unexpected keyword.*'foo'"):
        F.n_step_bigru(2, 0., hx, ws, bs, xs, foo=1)
    with pytest.raises(ValueError, match='must hold 6 arrays'):
        F.n_step_gru(2, 0., hx, [w[:2] for w in ws], bs, xs)
    with pytest.raises(ValueError, match='n_layers \\* 2'):
        F.n_step_bigru(2, 0., hx, ws, bs, xs)
