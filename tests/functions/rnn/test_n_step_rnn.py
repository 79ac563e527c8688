import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.rnn.n_step_rnn import n_step_rnn_base
from n_step_ref import numpy_n_step, params, reference_inputs

# Computed with Chainer 7.8.1 (2 layers, the inputs of reference_inputs,
# dropout_ratio=0.3 in test mode); YS stacks ys[0] (2 rows) and ys[1].
RNN_HY = [[[-0.9960276, 0.9979883], [-0.43520176, 0.0081262]],
 [[0.99933609, 0.1697772], [0.97765451, 0.99461474]]]
RNN_YS = [[0.90202448, -0.99854221], [0.97765451, 0.99461474], [0.99933609, 0.1697772]]
RNN_BI_HY = [[[-0.9956043, 0.99806849], [-0.40950779, 0.52117442]],
 [[0.99564834, -0.11639103], [0.25350352, -0.30954132]],
 [[-0.3065417, 0.99998749], [-0.54502425, 0.3113693]],
 [[0.9948255, -0.99820674], [0.99955959, 0.7291246]]]
RNN_BI_YS = [[-0.2632595, 0.99676308, 0.9948255, -0.99820674],
 [-0.54502425, 0.3113693, 0.99955959, 0.7291246],
 [-0.3065417, 0.99998749, 0.99934223, -0.99563598]]


def _cell(act):
    def cell(x, h, c, w, b):
        return act(x @ w[0].T + b[0] + h @ w[1].T + b[1]), None
    return cell


@pytest.mark.parametrize('bi,hy_ref,ys_ref', [(False, RNN_HY, RNN_YS),
                                              (True, RNN_BI_HY, RNN_BI_YS)])
def test_reference_values(bi, hy_ref, ys_ref):
    hx, _, ws, bs, xs = reference_inputs(2 if bi else 1, 2)
    f = F.n_step_birnn if bi else F.n_step_rnn
    with chainer.using_config('train', False):
        hy, ys = f(2, 0.3, hx, ws, bs, xs)
    assert isinstance(ys, tuple) and len(ys) == 2
    testing.assert_allclose(hy.array, hy_ref, atol=1e-7)
    testing.assert_allclose(numpy.concatenate([y.array for y in ys]), ys_ref,
                            atol=1e-7)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('bi,activation', [(False, 'tanh'), (True, 'relu')])
def test_against_numpy(dtype, bi, activation):
    dirs = 2 if bi else 1
    rng = numpy.random.RandomState(7)
    xs = [rng.randn(n, 3).astype(dtype) for n in (3, 2, 2, 1)]
    ws, bs = params(rng, dirs, 2, in_size=3)
    ws = [[w.astype(dtype) for w in l] for l in ws]
    bs = [[b.astype(dtype) for b in l] for l in bs]
    hx = rng.randn(2 * dirs, 3, 2).astype(dtype)
    act = numpy.tanh if activation == 'tanh' else \
        (lambda v: numpy.maximum(v, 0))
    f = F.n_step_birnn if bi else F.n_step_rnn
    hy, ys = f(2, 0., hx, ws, bs, xs, activation=activation)
    d64 = [[a.astype('d') for a in l] for l in ws], \
        [[a.astype('d') for a in l] for l in bs]
    hy_ref, _, ys_ref = numpy_n_step(
        _cell(act), 2, hx.astype('d'), None, d64[0], d64[1],
        [x.astype('d') for x in xs], dirs)
    tol = dict(atol=1e-2, rtol=1e-2) if dtype == numpy.float16 else {}
    assert hy.dtype == dtype and ys[0].dtype == dtype
    testing.assert_allclose(hy.array, numpy.stack(hy_ref), **tol)
    for y, e in zip(ys, ys_ref):
        testing.assert_allclose(y.array, e, **tol)


@pytest.mark.parametrize('bi', [False, True])
def test_gradients(bi):
    dirs = 2 if bi else 1
    rng = numpy.random.RandomState(8)
    xs = [rng.randn(n, 2) for n in (2, 1)]
    ws, bs = params(rng, dirs, 2, n_layers=1)
    hx = rng.randn(dirs, 2, 2)
    f = F.n_step_birnn if bi else F.n_step_rnn
    n_w = 2 * dirs

    def func(hx, x0, x1, *wb):
        w = [list(wb[2 * k:2 * k + 2]) for k in range(dirs)]
        b = [list(wb[n_w + 2 * k:n_w + 2 * k + 2]) for k in range(dirs)]
        hy, ys = f(1, 0., hx, w, b, [x0, x1])
        return (hy,) + ys

    inputs = (hx, xs[0], xs[1]) + tuple(w for l in ws for w in l) + \
        tuple(b for l in bs for b in l)
    gys = [rng.randn(dirs, 2, 2), rng.randn(2, 2 * dirs),
           rng.randn(1, 2 * dirs)]
    gradient_check.check_backward(func, inputs, gys, dtype=numpy.float64,
                                  atol=1e-6, rtol=1e-6)
    ggs = [rng.randn(*a.shape) for a in inputs]
    gradient_check.check_double_backward(func, inputs, gys, ggs,
                                         dtype=numpy.float64, atol=1e-5,
                                         rtol=1e-5)


def test_hx_none_is_zeros():
    hx, _, ws, bs, xs = reference_inputs(1, 2)
    a, ys_a = F.n_step_rnn(2, 0., None, ws, bs, xs)
    b, ys_b = F.n_step_rnn(2, 0., numpy.zeros_like(hx), ws, bs, xs)
    testing.assert_allclose(a.array, b.array)


def test_dropout_only_between_layers():
    hx, _, ws, bs, xs = reference_inputs(1, 2)
    with chainer.using_config('train', True):
        one = [F.n_step_rnn(1, 0.9, hx[:1], ws[:1], bs[:1], xs)[0].array
               for _ in range(2)]
        two = F.n_step_rnn(2, 0.9, hx, ws, bs, xs)[0].array
    testing.assert_allclose(one[0], one[1])  # no dropout on layer 0
    with chainer.using_config('train', False):
        two_test = F.n_step_rnn(2, 0.9, hx, ws, bs, xs)[0].array
    assert not numpy.allclose(two, two_test)


def test_errors():
    hx, _, ws, bs, xs = reference_inputs(1, 2)
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.n_step_rnn(2, 0., hx, ws, bs, xs, train=True)
    with pytest.raises(ValueError, match='use_cudnn argument'):
        F.n_step_birnn(2, 0., hx, ws, bs, xs, use_cudnn=True)
    with pytest.raises(TypeError, match="unexpected keyword.*'foo'"):
        F.n_step_rnn(2, 0., hx, ws, bs, xs, foo=1)
    with pytest.raises(ValueError, match='Invalid activation: "sigmoid"'):
        F.n_step_rnn(2, 0., hx, ws, bs, xs, activation='sigmoid')
    with pytest.raises(ValueError, match='ws and bs must hold'):
        F.n_step_rnn(3, 0., hx, ws, bs, xs)
    with pytest.raises(ValueError, match='hx must have the shape'):
        F.n_step_rnn(2, 0., hx[:, :1], ws, bs, xs)
    with pytest.raises(ValueError, match='must not increase'):
        F.n_step_rnn(2, 0., hx[:, :1], ws, bs, xs[::-1])
    with pytest.raises(ValueError, match='at least one time step'):
        F.n_step_rnn(2, 0., hx, ws, bs, [])
    with pytest.raises(ValueError, match=r'ws\[1\]\[0\] must have the shape'):
        F.n_step_rnn(2, 0., hx, [ws[0], [numpy.ones((2, 3)), ws[1][1]]], bs,
                    xs)
    with pytest.raises(ValueError, match=r'ws\[0\] and bs\[0\] must hold 2'):
        F.n_step_rnn(2, 0., hx, [ws[0][:1], ws[1]], bs, xs)


def test_base_function():
    hx, _, ws, bs, xs = reference_inputs(2, 2)
    with chainer.using_config('train', False):
        hy, ys = n_step_rnn_base(2, 0.3, hx, ws, bs, xs, 'tanh', True)
    testing.assert_allclose(hy.array, RNN_BI_HY, atol=1e-7)
