import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

F16 = {numpy.float16: dict(atol=1e-2, rtol=1e-2)}


def test_linear():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (3, 4)).astype(dt),
                rng.uniform(-1, 1, (2, 4)).astype(dt),
                rng.uniform(-1, 1, (2,)).astype(dt))

    check_op(F.linear, make, lambda x, W, b: x @ W.T + b, fwd_tol=F16)


def test_linear_no_bias_flattens():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (2, 3, 2)).astype(dt),
                rng.uniform(-1, 1, (4, 6)).astype(dt))

    check_op(F.linear, make, lambda x, W: x.reshape(2, 6) @ W.T, fwd_tol=F16)


def test_linear_n_batch_axes():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (2, 3, 4)).astype(dt),
                rng.uniform(-1, 1, (5, 4)).astype(dt),
                rng.uniform(-1, 1, (5,)).astype(dt))

    check_op(lambda x, W, b: F.linear(x, W, b, n_batch_axes=2), make,
             lambda x, W, b: x @ W.T + b, fwd_tol=F16)


def test_empty_batch_and_creator():
    W = numpy.ones((3, 4), numpy.float32)
    y = F.linear(numpy.ones((0, 4), numpy.float32), W)
    assert y.shape == (0, 3)
    y = F.linear(numpy.ones((2, 4), numpy.float32), W)
    assert type(y.creator).__name__ == 'LinearFunction'
    # Mixed dtypes: the output keeps x's dtype (as in Chainer).
    assert F.linear(numpy.ones((2, 4), numpy.float16), W).dtype == \
        numpy.float16


def test_gradients_values():
    x = chainer.Variable(numpy.array([[1., 2.]], numpy.float32))
    W = chainer.Variable(numpy.array([[3., 4.], [5., 6.]], numpy.float32))
    b = chainer.Variable(numpy.zeros(2, numpy.float32))
    F.sum(F.linear(x, W, b)).backward()
    numpy.testing.assert_array_equal(x.grad, [[8., 10.]])
    numpy.testing.assert_array_equal(W.grad, [[1., 2.], [1., 2.]])
    numpy.testing.assert_array_equal(b.grad, [1., 1.])


def test_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='x.shape\\[1\\] == W.shape\\[1\\]'):
        F.linear(x, numpy.ones((4, 2), numpy.float32))
    with pytest.raises(InvalidType, match='W.ndim == 2'):
        F.linear(x, numpy.ones((4, 3, 1, 1), numpy.float32))
    with pytest.raises(InvalidType, match='b.shape\\[0\\] == W.shape\\[0\\]'):
        F.linear(x, numpy.ones((4, 3), numpy.float32),
                 numpy.ones(3, numpy.float32))
    with pytest.raises(InvalidType, match='b.ndim == 1'):
        F.linear(x, numpy.ones((4, 3), numpy.float32),
                 numpy.ones((1, 4), numpy.float32))
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.linear(x.astype(numpy.int32), numpy.ones((4, 3), numpy.float32))
    with pytest.raises(ValueError, match='n_batch_axes'):
        F.linear(x, numpy.ones((4, 3), numpy.float32), n_batch_axes=0)


def test_backward_graph_nodes():
    # Chainer's gradient nodes (visible to hooks and graph dumps).
    seen = []

    class Hook(chainer.FunctionHook):
        def forward_preprocess(self, function, in_data):
            seen.append((function.label, [d.shape for d in in_data]))

    x = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    W = chainer.Variable(numpy.full((5, 4), 0.5, numpy.float32))
    b = chainer.Variable(numpy.zeros(5, numpy.float32))
    y = F.linear(x, W, b)
    y.grad = numpy.ones((2, 5), numpy.float32)
    with Hook():
        y.backward()
    assert seen == [('LinearGradData', [(5, 4), (2, 5)]),
                    ('LinearGradWeight', [(2, 4), (2, 5)]),
                    ('Sum', [(2, 5)])]
    numpy.testing.assert_array_equal(x.grad, numpy.full((2, 4), 2.5))
    numpy.testing.assert_array_equal(W.grad, numpy.full((5, 4), 2.0))


def test_grad_nodes_third_order():
    x = chainer.Variable(numpy.array([[1., 2.]]))
    W = chainer.Variable(numpy.array([[3., 4.]]))
    y = F.sum(F.linear(x, W) ** 3)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx)], [W], enable_double_backprop=True)
    # y = s^3 with s = x.W (=11); d/dW of sum(3 s^2 W) = 6 s x W + 3 s^2
    s = 11.
    numpy.testing.assert_allclose(
        ggx.array, 6 * s * numpy.array([[1., 2.]]) * 7. + 3 * s * s)


@pytest.mark.parametrize('batch, n_out', [(3, 50), (50, 3)])
def test_both_gemm_orders(batch, n_out):
    # A batch smaller than the output takes the other operand order; the
    # output is C-ordered either way.
    rng = numpy.random.RandomState(0)
    x = rng.randn(batch, 7).astype(numpy.float32)
    W = rng.randn(n_out, 7).astype(numpy.float32)
    b = rng.randn(n_out).astype(numpy.float32)
    for args in ((x, W, b), (x, W)):
        y = F.linear(*args).array
        assert y.flags.c_contiguous and y.dtype == numpy.float32
        ref = x.astype(numpy.float64) @ W.T.astype(numpy.float64)
        if len(args) == 3:
            ref += b
        numpy.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)


def test_weight_used_at_many_steps():
    # The first-order path adds each step's gradients to the inputs'
    # partial sums (backward_accumulate), with the bias's and x's too.
    rng = numpy.random.RandomState(0)
    W = chainer.Parameter(rng.randn(6, 4).astype(numpy.float32))
    b = chainer.Parameter(rng.randn(6).astype(numpy.float32))
    h = chainer.Variable(rng.randn(3, 4).astype(numpy.float32))
    gys = [rng.randn(3, 6).astype(numpy.float32) for _ in range(4)]
    loss = F.sum(h * h)
    for gy in gys:
        loss += F.sum(F.linear(h, W, b) * gy)
    loss.backward()
    x64, W64 = h.array.astype(numpy.float64), W.array.astype(numpy.float64)
    g64 = [gy.astype(numpy.float64) for gy in gys]
    numpy.testing.assert_allclose(W.grad, sum(gy.T @ x64 for gy in g64),
                                  rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(b.grad, sum(gy.sum(0) for gy in g64),
                                  rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(
        h.grad, 2 * x64 + sum(gy @ W64 for gy in g64), rtol=1e-5, atol=1e-5)
    # the graph path (double backprop on) gives the same sums
    W.cleargrad()
    loss = sum(F.sum(F.linear(h, W, b) * gy) for gy in gys)
    loss.backward(enable_double_backprop=True)
    numpy.testing.assert_allclose(W.grad, sum(gy.T @ x64 for gy in g64),
                                  rtol=1e-5, atol=1e-5)


class _Counted:
    """The C loops' thin GEMMs, counting their calls."""

    def __init__(self, loops):
        self.loops, self.calls = loops, []

    def linear_nt(self, *args):
        self.calls.append('nt')
        return self.loops.linear_nt(*args)

    def linear_nn(self, *args):
        self.calls.append('nn')
        return self.loops.linear_nn(*args)


@pytest.mark.parametrize('m, n, k', [(20, 10000, 200), (20, 800, 200),
                                     (1, 4096, 17), (32, 2001, 97)])
def test_thin_gemms_match_numpy(monkeypatch, m, n, k):
    # F.linear's thin GEMMs (the C loops, forced on here whatever the
    # CPU) against its NumPy path: forward, the first-order backward
    # (_backward_arrays), the graph path (LinearGradData) and
    # backward_accumulate
    from chainer.functions.connection import linear as linear_module
    loops = linear_module._loops
    if getattr(loops, 'linear_nt', None) is None:
        pytest.skip('the C loops are not built')
    rng = numpy.random.RandomState(m + n + k)
    x0 = rng.randn(m, k).astype(numpy.float32)
    W0 = rng.randn(n, k).astype(numpy.float32)
    b0 = rng.randn(n).astype(numpy.float32)
    gy = rng.randn(m, n).astype(numpy.float32)
    ggx = rng.randn(m, k).astype(numpy.float32)

    def run(thin):
        monkeypatch.setattr(linear_module, '_thin', thin)
        out = []
        for double in (False, True):
            x, W, b = (chainer.Variable(a.copy()) for a in (x0, W0, b0))
            y = F.linear(x, W, b)
            y.grad = gy
            y.backward(enable_double_backprop=double)
            out += [y.array, x.grad, W.grad, b.grad]
        # gx's gradient flows through LinearGradData's own products
        x, W = chainer.Variable(x0), chainer.Variable(W0)
        gx, = chainer.grad([F.linear(x, W)], [x], grad_outputs=[gy],
                           enable_double_backprop=True)
        gW, = chainer.grad([gx], [W], grad_outputs=[ggx])
        out += [gx.array, gW.array]
        # a weight used twice: backward_accumulate adds to x's gradient
        x = chainer.Variable(x0)
        h = F.linear(x, W0, b0)
        loss = F.sum(h * gy) + F.sum(F.linear(x, W0) * gy)
        loss.backward()
        out.append(x.grad)
        return out

    counted = _Counted(loops)
    got, want = run(counted), run(None)
    assert counted.calls.count('nt') >= 3 and counted.calls.count('nn') >= 4
    x64, W64 = x0.astype(numpy.float64), W0.astype(numpy.float64)
    gy64 = gy.astype(numpy.float64)
    scale = [abs(x64) @ abs(W64).T + abs(b0), abs(gy64) @ abs(W64), None,
             None] * 2 + [abs(gy64) @ abs(W64), None, 2 * abs(gy64) @
                          abs(W64)]
    for i, (g, w, s) in enumerate(zip(got, want, scale)):
        assert g.dtype == w.dtype == numpy.float32 and g.shape == w.shape
        assert g.flags.c_contiguous, i
        if s is None:  # not the thin GEMMs' products (gW, gb): the same
            numpy.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
        else:
            assert numpy.all(abs(g - w) <= 4e-7 * k * s + 1e-30), i
            assert not numpy.isnan(g).any()


def test_thin_gemms_only_where_they_win(monkeypatch):
    # the NumPy path for float64, a big batch, a small or non-contiguous
    # W, and without the C loops
    from chainer.functions.connection import linear as linear_module
    counted = _Counted(linear_module._loops)
    monkeypatch.setattr(linear_module, '_thin', counted)
    rng = numpy.random.RandomState(0)
    W = rng.randn(4096, 32).astype(numpy.float32)
    x = rng.randn(linear_module._THIN_ROWS + 1, 64).astype(numpy.float32)
    cases = [(x[:4, :32].astype(numpy.float64), W.astype(numpy.float64)),
             (x[:, :32].copy(), W),
             (x[:4, :32].copy(), W[:100]),
             (x[:4, ::2], W),
             (x[:4, :32].copy(), numpy.asfortranarray(W))]
    for a, w in cases:
        y = F.linear(a, w).array
        numpy.testing.assert_allclose(y, a @ w.T, rtol=1e-4, atol=1e-4)
    assert counted.calls == []
    F.linear(rng.randn(4, 32).astype(numpy.float32), W)
    assert counted.calls == ['nt']


@pytest.mark.parametrize('rows, ours', [(20, True), (100, False)])
def test_weight_sum_of_thin_products_runs_on_our_threads(monkeypatch, rows,
                                                        ours):
    # A leaf weight's summed gradient runs on chainer-ng's threads
    # (_blas.matmul) where its products are thin GEMMs (few rows against
    # a large float32 W), and as one NumPy product elsewhere; the same sum
    # to float tolerance either way.
    from chainer.functions.connection import linear as linear_mod
    from chainer.utils import _blas
    monkeypatch.setattr(linear_mod, '_thin', linear_mod._loops)
    if linear_mod._loops is None:
        pytest.skip('the C loops are not built')
    calls = []
    real = _blas.matmul

    def spy(a, b, out=None):
        calls.append(a.shape)
        return real(a, b, out=out)
    monkeypatch.setattr(_blas, 'matmul', spy)
    rng = numpy.random.RandomState(1)
    W = chainer.Parameter(rng.randn(1000, 80).astype(numpy.float32))
    xs = [rng.randn(rows, 80).astype(numpy.float32) for _ in range(3)]
    gys = [rng.randn(rows, 1000).astype(numpy.float32) for _ in range(3)]
    loss = sum(F.sum(F.linear(x, W) * gy) for x, gy in zip(xs, gys))
    loss.backward()
    assert calls == ([(1000, 3 * rows)] if ours else [])
    ref = sum(gy.astype(numpy.float64).T @ x for x, gy in zip(xs, gys))
    numpy.testing.assert_allclose(W.grad, ref, rtol=1e-5, atol=1e-4)
