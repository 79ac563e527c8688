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
