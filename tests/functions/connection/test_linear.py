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
