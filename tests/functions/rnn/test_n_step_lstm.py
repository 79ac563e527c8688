import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from n_step_ref import numpy_n_step, params, reference_inputs, sigmoid

# Computed with Chainer 7.8.1 (2 layers, the inputs of reference_inputs,
# dropout_ratio=0.3 in test mode); YS stacks ys[0] (2 rows) and ys[1].
LSTM_HY = [[[-0.00794263, -0.64433467], [-0.05581459, -0.05808372]],
 [[-0.62079964, 0.17799794], [0.29698629, -0.00072299]]]
LSTM_CY = [[[-0.02563742, -1.14275657], [-1.40722943, -0.05855721]],
 [[-0.78883916, 0.36931626], [0.44986413, -0.00182549]]]
LSTM_YS = [[-0.65623597, 0.15640483], [0.29698629, -0.00072299],
 [-0.62079964, 0.17799794]]
LSTM_BI_HY = [[[-0.06973554, -0.61944659], [-0.03019636, -0.86139469]],
 [[-0.24252431, 0.08983619], [-0.36765552, 0.07166846]],
 [[0.0339346, -0.05320972], [-0.07633216, -0.17029802]],
 [[0.06784183, 0.35162377], [-0.44129976, -0.2728498]]]
LSTM_BI_CY = [[[-0.276103, -1.72105131], [-0.17516352, -1.30058317]],
 [[-0.43406598, 0.1189067], [-0.57903446, 0.08138414]],
 [[0.07433576, -0.40213977], [-0.17364555, -0.32418214]],
 [[0.46689368, 0.49308268], [-0.52992327, -0.3088281]]]
LSTM_BI_YS = [[-0.23623123, -0.08685029, 0.06784183, 0.35162377],
 [-0.07633216, -0.17029802, -0.44129976, -0.2728498],
 [0.0339346, -0.05320972, 0.05310269, 0.40290715]]


def _lstm_cell(x, h, c, w, b):
    g = [x @ w[k].T + b[k] + h @ w[k + 4].T + b[k + 4] for k in range(4)]
    i, f, a, o = sigmoid(g[0]), sigmoid(g[1]), numpy.tanh(g[2]), \
        sigmoid(g[3])
    c = f * c + i * a
    return o * numpy.tanh(c), c


@pytest.mark.parametrize('bi,hy_ref,cy_ref,ys_ref', [
    (False, LSTM_HY, LSTM_CY, LSTM_YS),
    (True, LSTM_BI_HY, LSTM_BI_CY, LSTM_BI_YS)])
def test_reference_values(bi, hy_ref, cy_ref, ys_ref):
    hx, cx, ws, bs, xs = reference_inputs(2 if bi else 1, 8)
    f = F.n_step_bilstm if bi else F.n_step_lstm
    with chainer.using_config('train', False):
        hy, cy, ys = f(2, 0.3, hx, cx, ws, bs, xs)
    testing.assert_allclose(hy.array, hy_ref, atol=1e-7)
    testing.assert_allclose(cy.array, cy_ref, atol=1e-7)
    testing.assert_allclose(numpy.concatenate([y.array for y in ys]), ys_ref,
                            atol=1e-7)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('bi', [False, True])
def test_against_numpy(dtype, bi):
    dirs = 2 if bi else 1
    rng = numpy.random.RandomState(7)
    xs = [rng.randn(n, 3) for n in (3, 2, 2, 1)]
    ws, bs = params(rng, dirs, 8, in_size=3)
    hx = rng.randn(2 * dirs, 3, 2)
    cx = rng.randn(2 * dirs, 3, 2)
    cast = (lambda ls: [[a.astype(dtype) for a in l] for l in ls])
    hy, cy, ys = (F.n_step_bilstm if bi else F.n_step_lstm)(
        2, 0., hx.astype(dtype), cx.astype(dtype), cast(ws), cast(bs),
        [x.astype(dtype) for x in xs])
    hy_ref, cy_ref, ys_ref = numpy_n_step(_lstm_cell, 2, hx, cx, ws, bs, xs,
                                           dirs)
    tol = dict(atol=2e-2, rtol=2e-2) if dtype == numpy.float16 else \
        dict(atol=1e-5, rtol=1e-5)
    assert hy.dtype == dtype and cy.dtype == dtype and ys[0].dtype == dtype
    testing.assert_allclose(hy.array, numpy.stack(hy_ref), **tol)
    testing.assert_allclose(cy.array, numpy.stack(cy_ref), **tol)
    for y, e in zip(ys, ys_ref):
        testing.assert_allclose(y.array, e, **tol)


@pytest.mark.parametrize('bi', [False, True])
def test_gradients(bi):
    dirs = 2 if bi else 1
    rng = numpy.random.RandomState(8)
    xs = [rng.randn(n, 2) for n in (2, 1)]
    ws, bs = params(rng, dirs, 8, n_layers=1)
    hx = rng.randn(dirs, 2, 2)
    cx = rng.randn(dirs, 2, 2)
    f = F.n_step_bilstm if bi else F.n_step_lstm

    def func(hx, cx, x0, x1, w2, w7, b3):
        w = [[ws[0][0], ws[0][1], w2] + ws[0][3:7] + [w7]] + ws[1:]
        b = [bs[0][:3] + [b3] + bs[0][4:]] + bs[1:]
        hy, cy, ys = f(1, 0., hx, cx, w, b, [x0, x1])
        return (hy, cy) + ys

    inputs = (hx, cx, xs[0], xs[1], ws[0][2], ws[0][7], bs[0][3])
    gys = [rng.randn(dirs, 2, 2), rng.randn(dirs, 2, 2),
           rng.randn(2, 2 * dirs), rng.randn(1, 2 * dirs)]
    gradient_check.check_backward(func, inputs, gys, dtype=numpy.float64,
                                  atol=1e-6, rtol=1e-6)
    ggs = [rng.randn(*a.shape) for a in inputs]
    gradient_check.check_double_backward(func, inputs, gys, ggs,
                                         dtype=numpy.float64, atol=1e-5,
                                         rtol=1e-5)


def test_none_states_are_zeros():
    hx, cx, ws, bs, xs = reference_inputs(1, 8)
    a = F.n_step_lstm(2, 0., None, None, ws, bs, xs)
    b = F.n_step_lstm(2, 0., numpy.zeros_like(hx), numpy.zeros_like(cx), ws,
                      bs, xs)
    testing.assert_allclose(a[0].array, b[0].array)
    testing.assert_allclose(a[1].array, b[1].array)


def test_errors():
    hx, cx, ws, bs, xs = reference_inputs(1, 8)
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.n_step_lstm(2, 0., hx, cx, ws, bs, xs, train=True)
    with pytest.raises(ValueError, match='use_cudnn argument'):
        F.n_step_bilstm(2, 0., hx, cx, ws, bs, xs, use_cudnn=False)
    with pytest.raises(TypeError, match="unexpected keyword.*'foo'"):
        F.n_step_lstm(2, 0., hx, cx, ws, bs, xs, foo=1)
    with pytest.raises(ValueError, match='cx must have the shape'):
        F.n_step_lstm(2, 0., hx, cx[:1], ws, bs, xs)
    with pytest.raises(ValueError, match=r'bs\[0\]\[1\] must have the shape'):
        F.n_step_lstm(2, 0., hx, cx, ws,
                      [[bs[0][0], bs[0][1][:1]] + bs[0][2:], bs[1]], xs)


def _grads_for_bits(fn, *arrays):
    """Outputs and input gradients of fn, backpropagating
    sum(y * gy) with gy drawn from RandomState(7)."""
    import chainer
    vs = [chainer.Variable(a) for a in arrays]
    ys = fn(*vs)
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    rs = numpy.random.RandomState(7)
    loss = None
    for y in ys:
        t = F.sum(y * rs.randn(*y.shape).astype(y.dtype))
        loss = t if loss is None else loss + t
    loss.backward()
    return [y.array for y in ys], [v.grad for v in vs]


def test_bits_match_chainer_n_step_lstm():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(4)
    ws = [[(rs.randn(2, 3 if i < 4 else 2) * .5).astype(numpy.float32)
           for i in range(8)]]
    bs = [[(rs.randn(2) * .5).astype(numpy.float32) for i in range(8)]]
    x0 = rs.randn(2, 3).astype(numpy.float32)
    x1 = rs.randn(1, 3).astype(numpy.float32)
    h0 = rs.randn(1, 2, 2).astype(numpy.float32)
    c0 = rs.randn(1, 2, 2).astype(numpy.float32)

    def f(h, c, w0, w4, a, b):
        w = [[w0] + ws[0][1:4] + [w4] + ws[0][5:]]
        hy, cy, ys = F.n_step_lstm(1, 0.0, h, c, w, bs, [a, b])
        return [hy, cy] + list(ys)

    ys, gs = _grads_for_bits(f, h0, c0, ws[0][0], ws[0][4], x0, x1)
    out = {'ys0': ys[2], 'gh': gs[0], 'gw0': gs[2], 'gw4': gs[3]}
    expect = {
        'ys0': numpy.array([
            0.04392801597714424, 0.5280512571334839,
            0.027443794533610344, 0.4604417085647583],
            numpy.float32).reshape((2, 2)),
        'gh': numpy.array([
            0.04879385232925415, 0.0028124279342591763,
            0.3004094362258911, -0.21297381818294525],
            numpy.float32).reshape((1, 2, 2)),
        'gw0': numpy.array([
            0.029177570715546608, -0.0038437042385339737,
            -0.014601216651499271, -0.06362494081258774,
            -0.31666073203086853, -0.0638933777809143],
            numpy.float32).reshape((2, 3)),
        'gw4': numpy.array([
            0.019839629530906677, -0.03324279189109802,
            0.08278246968984604, -0.04070822522044182],
            numpy.float32).reshape((2, 2)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32


def test_bidirectional_dropout_masks_per_direction():
    # Chainer drops the input of a deeper layer once per direction (two
    # masks from the global generator), which sets both the values and
    # the generator's state after the call.
    numpy.random.seed(0)
    xs = [numpy.random.randn(n, 3).astype(numpy.float32) for n in (3, 2)]
    ws = [[numpy.random.randn(2, (3 if k < 2 else 4) if i < 4 else 2)
           .astype(numpy.float32) * .5 for i in range(8)] for k in range(4)]
    bs = [[numpy.random.randn(2).astype(numpy.float32) * .5
           for i in range(8)] for k in range(4)]
    z = numpy.zeros((4, 3, 2), numpy.float32)
    numpy.random.seed(3)
    hy, _, _ = F.n_step_bilstm(2, 0.5, z, z, ws, bs, xs)
    assert numpy.random.rand() == 0.4065199163762486
    numpy.testing.assert_allclose(hy.array[3], [
        [-0.10731443017721176, -0.04315789043903351],
        [-0.2071407586336136, -0.14932465553283691],
        [-0.12138085067272186, -0.07270857691764832]], rtol=1e-5)
