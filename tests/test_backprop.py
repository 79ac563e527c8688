import gc
import tracemalloc
import weakref

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Variable


def _v(a, **kw):
    return Variable(numpy.asarray(a, dtype=numpy.float32), **kw)


def test_scalar_output_is_seeded_with_one():
    x = _v(5.)
    y = x ** 2 - 2 * x + 1
    y.backward()
    assert x.grad.dtype == numpy.float32 and x.grad.item() == 8.


def test_multi_element_output_needs_grad():
    x = _v([1., 2.])
    with pytest.raises(TypeError, match=r'shape \(2,\).*set y.grad'):
        (x * 2).backward()


def test_intermediate_grads_released_unless_retained():
    x = _v([5.])
    z = 2 * x
    y = x ** 2 - z + 1
    y.backward()
    assert z.grad is None and y.grad is None
    x.cleargrad()
    z = 2 * x
    y = x ** 2 - z + 1
    y.backward(retain_grad=True)
    assert z.grad.item() == -1. and y.grad.item() == 1.


def test_leaf_grads_accumulate():
    x = _v([5.])
    (x * x).backward()
    (x * x).backward()
    assert x.grad.item() == 20.


def test_paths_meeting_are_summed():
    # diamond: y = (x*2) * (x*3) -> dy/dx = 12x
    x = _v([[1., 2.]])
    a = x * 2
    b = x * 3
    y = F.sum(a * b + a + b)
    y.backward()
    numpy.testing.assert_allclose(x.grad, 12 * x.array + 5)


def test_requires_grad_false():
    x = _v([1., 2.], requires_grad=False)
    w = _v([3., 4.])
    F.sum(x * w).backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(w.grad, [1., 2.])


def test_broadcast_gradients_reduced():
    x = _v(numpy.ones((2, 3)))
    b = _v([1., 2., 3.])
    c = _v([[1.], [2.]])
    F.sum(x * b + c).backward()
    assert b.grad.shape == (3,) and c.grad.shape == (2, 1)
    numpy.testing.assert_array_equal(b.grad, [2., 2., 2.])
    numpy.testing.assert_array_equal(c.grad, [[3.], [3.]])


def test_loss_scale():
    x = _v([3.])
    (x * x).backward(loss_scale=8)
    assert x.grad.item() == 48.
    assert x.node._loss_scale == 8


def test_loss_scale_not_applied_to_a_given_grad():
    x = _v(5.)
    y = x * x
    y.grad = numpy.array(1., numpy.float32)
    y.backward(loss_scale=8)
    assert x.grad.item() == 10.


def test_double_backprop():
    x = _v([2.])
    y = x ** 3
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    assert gx.creator is not None
    x.cleargrad()
    gx.backward()
    assert x.grad.item() == 12.


def test_without_double_backprop_grad_has_no_graph():
    x = _v([2.])
    (x ** 3).backward()
    assert x.grad_var.creator is None


def test_no_backprop_mode():
    x = _v([1.])
    with chainer.no_backprop_mode():
        y = x * 2
        with chainer.force_backprop_mode():
            z = x * 2
    assert y.creator is None and z.creator is not None


def test_grad_function():
    x = _v([2.])
    w = _v([3.])
    y = x * x * w
    gx, gw = chainer.grad([y], [x, w])
    assert gx.array.item() == 12. and gw.array.item() == 4.
    assert x.grad is None and w.grad is None
    gx, = chainer.grad([y], [x], set_grad=True)
    assert x.grad.item() == 12.


def test_grad_wrt_intermediate_and_double():
    x = _v([2.])
    h = x * x
    y = h * 3
    gh, = chainer.grad([y], [h])
    assert gh.array.item() == 3.
    gx, = chainer.grad([x ** 3], [x], enable_double_backprop=True)
    ggx, = chainer.grad([gx], [x])
    assert ggx.array.item() == 12.


def test_grad_unreached_input_is_none():
    x = _v([2.])
    u = _v([1.])
    y = x * 2
    assert chainer.grad([y], [x, u])[1] is None


def test_grad_argument_errors():
    x = _v([2.])
    with pytest.raises(TypeError, match='tuple or a list'):
        chainer.grad(x * 2, [x])
    with pytest.raises(ValueError, match='same length'):
        chainer.grad([x * 2], [x], grad_outputs=[None, None])


def test_backward_several_outputs():
    x = _v([1., 2.])
    y1 = x * 2
    y2 = x * 3
    chainer.backward([y1, y2], [numpy.ones(2, numpy.float32),
                                numpy.ones(2, numpy.float32)])
    numpy.testing.assert_array_equal(x.grad, [5., 5.])
    with pytest.raises(ValueError, match='retain_grad'):
        chainer.backward([y1], retain_grad=True)


def test_retain_graph_false_releases():
    x = _v([2.])
    y = x * x
    y.backward(retain_graph=False)
    assert x.grad.item() == 4.
    with pytest.raises(RuntimeError, match='second time.*released'):
        y.grad = numpy.ones(1, numpy.float32)
        y.backward()


def test_backward_twice_by_default():
    x = _v(2.)
    y = x * x
    y.backward()
    y.backward()
    assert x.grad.item() == 8.


def test_unchained_function_raises():
    x = _v([2.])
    y = x * 2
    z = y * 3
    f = y.creator
    y.creator_node = f  # keep the link, then purge the function
    f.unchain()
    z.creator_node.inputs[0].creator_node = f
    with pytest.raises(RuntimeError, match='unchained'):
        F.sum(z).backward()


def test_debug_mode_detects_nan():
    x = _v([-1.])
    with chainer.using_config('debug', True):
        with pytest.raises(RuntimeError, match='NaN is detected on forward computation of log'):
            F.log(x)


def test_debug_mode_lets_infinities_pass():
    # NaN only, as Chainer: log(0) and 1 / 0 are infinities a program may
    # mean (and their gradients too)
    x = _v([0., 1.])
    with chainer.using_config('debug', True):
        y = F.log(x)
        assert numpy.isneginf(y.array[0])
        F.sum(y).backward()
        assert numpy.isposinf(x.grad[0])
        with pytest.raises(RuntimeError, match='NaN is detected on forward '
                                               'computation of sqrt'):
            F.sqrt(x - 1)


def test_int_inputs_pass_through():
    x = Variable(numpy.array([1, 2], numpy.int32))
    y = x * 2
    assert y.dtype == numpy.int32


class TestMemory:

    def test_graph_freed_by_refcount(self):
        gc.collect()
        gc.disable()
        try:
            x = _v(numpy.ones(3))
            y = F.sum(F.exp(x * 2 + 1) * x)
            y.backward()
            func = weakref.ref(y.creator)
            node = weakref.ref(y.node)
            mid = weakref.ref(y.creator.inputs[0])
            del y
            assert func() is None and node() is None and mid() is None
        finally:
            gc.enable()

    def test_dropped_variable_frees_its_array(self):
        x = _v(numpy.ones(3))
        h = x + 1  # AddConstant and MulConstant retain no array
        y = h * 2
        array = weakref.ref(h.array)
        del h
        assert array() is None
        assert y.creator.inputs[0].data is None

    def test_training_loop_does_not_grow(self):
        w = _v(numpy.ones((4, 4)))
        x = numpy.ones((2, 4), numpy.float32)

        def step():
            w.cleargrad()
            loss = F.sum(F.matmul(x, w) * 0.5)
            loss.backward()
            w.array -= 1e-6 * w.grad

        for _ in range(200):
            step()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(10000):
            step()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert after - before < 100000, after - before


def test_grad_seeds_every_output_with_ones():
    # As Chainer: chainer.grad needs no grad_outputs, whatever the size.
    x = _v([1., 2., 3.])
    gx, = chainer.grad([x ** 3], [x])
    numpy.testing.assert_array_equal(gx.array, [3., 12., 27.])


@pytest.mark.parametrize('transa,transb', [(False, False), (True, False),
                                           (False, True), (True, True)])
def test_graph_free_backward_gives_the_bits_of_the_graph(transa, transb):
    # Without double backprop, matmul and tanh compute their gradients on
    # arrays instead of through gradient nodes: the same products, so the
    # same bits as with enable_double_backprop=True (which records nodes).
    rs = numpy.random.RandomState(3)
    a0 = rs.randn(5, 7).astype(numpy.float32)
    b0 = rs.randn(7, 6).astype(numpy.float32)
    a0 = a0.T.copy() if transa else a0
    b0 = b0.T.copy() if transb else b0
    grads = []
    for double in (False, True):
        a, b = chainer.Variable(a0), chainer.Variable(b0)
        y = F.tanh(F.matmul(a, b, transa=transa, transb=transb))
        F.sum(y * y).backward(enable_double_backprop=double)
        grads.append((a.grad, b.grad))
        assert (a.grad_var.creator is None) != double
    for g0, g1 in zip(*grads):
        numpy.testing.assert_array_equal(g0, g1)


# --- graph-free steps on arrays (FunctionNode._backward_arrays) ------------

def _tanh_layers(seed=0):
    rs = numpy.random.RandomState(seed)
    x = _v(rs.randn(3, 4))
    ws = [_v(rs.randn(4, 4) / 2) for _ in range(3)]
    return x, ws


def _forward(x, ws):
    h = x
    hs = []
    for w in ws:
        h = F.tanh(h @ w)
        hs.append(h)
    return hs


def test_array_steps_keep_intermediate_grads_as_variables():
    grads = []
    for double in (False, True):
        x, ws = _tanh_layers()
        hs = _forward(x, ws)
        F.sum(hs[-1] * 1).backward(retain_grad=True,
                                   enable_double_backprop=double)
        for h in hs:
            assert type(h.grad_var) is Variable
        assert type(x.grad_var) is Variable
        assert all(type(w.grad_var) is Variable for w in ws)
        grads.append([h.grad for h in hs] + [x.grad] + [w.grad for w in ws])
    for g0, g1 in zip(*grads):
        numpy.testing.assert_array_equal(g0, g1)


def test_array_steps_meet_variable_gradients():
    # w gets a gradient from the array steps of matmul and one from a
    # Variable step (mul); the two are summed as with double backprop.
    grads = []
    for double in (False, True):
        x, ws = _tanh_layers(1)
        y = F.sum(_forward(x, ws)[-1]) + F.sum(ws[0] * ws[0])
        y.backward(enable_double_backprop=double)
        grads.append([x.grad] + [w.grad for w in ws])
    for g0, g1 in zip(*grads):
        numpy.testing.assert_array_equal(g0, g1)


def test_grad_through_array_steps():
    x, ws = _tanh_layers(2)
    hs = _forward(x, ws)
    gx, gh, gw = chainer.grad([F.sum(hs[-1])], [x, hs[0], ws[1]])
    for g in (gx, gh, gw):
        assert type(g) is Variable and g.creator is None
    hs2 = _forward(x, ws)
    ref = chainer.grad([F.sum(hs2[-1])], [x, hs2[0], ws[1]],
                       enable_double_backprop=True)
    for g, r in zip((gx, gh, gw), ref):
        numpy.testing.assert_array_equal(g.array, r.array)


def test_hooks_and_debug_see_every_op():
    x, ws = _tanh_layers(3)
    y = F.sum(_forward(x, ws)[-1])
    seen = []

    class Hook(chainer.FunctionHook):
        name = 'seen'

        def backward_preprocess(self, function, in_data, out_grad):
            assert all(g is None or isinstance(g, numpy.ndarray)
                       for g in out_grad)
            seen.append(function.label)

    with Hook():
        y.backward()
    assert seen.count('MatMul') == 3 and seen.count('Tanh') == 3
    ref = [w.grad.copy() for w in ws]
    for w in ws:
        w.cleargrad()
    with chainer.using_config('debug', True):
        y.backward()
    for w, r in zip(ws, ref):
        numpy.testing.assert_array_equal(w.grad, r)


def test_array_steps_after_release_raise():
    x, ws = _tanh_layers(4)
    y = F.sum(_forward(x, ws)[-1])
    y.backward(retain_graph=False)
    with pytest.raises(RuntimeError, match='second time'):
        y.backward()


class _Twice(chainer.FunctionNode):
    # An op whose array step declines odd-sized inputs.

    def forward(self, inputs):
        return inputs[0] * 2,

    def _backward_arrays(self, indexes, gys):
        if gys[0].size % 2:
            return None
        return gys[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


@pytest.mark.parametrize('n', [3, 4])
def test_array_step_may_leave_the_case_to_backward(n):
    x = _v(numpy.arange(n))
    y, = _Twice().apply((x,))
    F.sum(y * y).backward()
    numpy.testing.assert_array_equal(x.grad, 8 * x.array)


# --- leaf gradients kept as sums (chainer._backprop.LeafSum) ---------------

def _d(a):
    return Variable(numpy.asarray(a, dtype=numpy.float64))


def _both_ways(run):
    """``run(double)`` for the plain pass (leaf sums) and the recorded one
    (no sums); their gradients must agree."""
    out = [run(False), run(True)]
    for g0, g1 in zip(*out):
        numpy.testing.assert_allclose(g0, g1, rtol=1e-12, atol=1e-12)
    return out[0]


def test_linear_weight_applied_at_many_steps(monkeypatch):
    from chainer.functions.connection import linear
    totals = []
    total = linear._WeightGradSum.total
    monkeypatch.setattr(linear._WeightGradSum, 'total',
                        lambda self: totals.append(len(self._terms)) or
                        total(self))
    rs = numpy.random.RandomState(5)
    W0, b0 = rs.randn(6, 4), rs.randn(6)
    xs = [rs.randn(3, 4) for _ in range(7)]

    def run(double):
        W, b = _d(W0), _d(b0)
        loss = sum(F.sum(F.tanh(F.linear(_d(x), W, b)) * (k + 1))
                   for k, x in enumerate(xs))
        loss.backward(enable_double_backprop=double)
        return W.grad, b.grad

    gW, gb = _both_ways(run)
    assert totals == [7]  # one sum of the 7 products, once
    ref = sum((1 - numpy.tanh(x @ W0.T + b0) ** 2).T @ x * (k + 1)
              for k, x in enumerate(xs))
    numpy.testing.assert_allclose(gW, ref, rtol=1e-12)
    assert gW.shape == (6, 4) and gW.dtype == numpy.float64


def test_linear_leaf_sum_flushes_past_its_limit(monkeypatch):
    # A sum holding more than its limit adds its pending products into a
    # partial sum: the same gradient.
    from chainer.functions.connection import linear
    rs = numpy.random.RandomState(6)
    W0 = rs.randn(2, 3).astype(numpy.float32)
    xs = [rs.randn(4, 3).astype(numpy.float32) for _ in range(5)]
    grads = []
    for limit in (1 << 25, 1):
        monkeypatch.setattr(linear._WeightGradSum, '_min_limit', limit)
        W = chainer.Parameter(W0.copy())
        F.sum(sum(F.linear(x, W) ** 2 for x in xs)).backward()
        grads.append(W.grad)
    ref = sum(2 * (x @ W0.T).T @ x for x in xs)
    for g in grads:
        assert g.dtype == numpy.float32
        numpy.testing.assert_allclose(g, ref, rtol=1e-5)


def test_leaf_sum_meets_other_gradients_of_the_weight():
    rs = numpy.random.RandomState(7)
    W0, x0 = rs.randn(3, 3), rs.randn(2, 3)

    def run(double):
        W = _d(W0)
        h = F.linear(F.linear(_d(x0), W), W)
        (F.sum(h * h) + F.sum(W * W)).backward(enable_double_backprop=double)
        return W.grad,
    gW, = _both_ways(run)
    assert gW.shape == (3, 3)


def test_leaf_sum_taken_by_an_accumulating_op_starts_anew():
    # x is the weight of a high-rank linear (its gradient starts a sum),
    # then the input of a linear whose weight is made by an op (that one
    # adds to x's gradient so far, in place), then the weight of a
    # low-rank linear (a new sum).
    rs = numpy.random.RandomState(8)
    X, V, H = rs.randn(5, 4), rs.randn(6, 4), rs.randn(2, 4)

    def run(double):
        x, v = _d(X), _d(V)
        deep = _d(H)
        for _ in range(4):
            deep = F.tanh(deep)
        a = F.linear(deep, x)
        b = F.linear(x, v * 2)
        c = F.linear(_d(H), x)
        (F.sum(a * a) + F.sum(b * b) + F.sum(c * c)).backward(
            enable_double_backprop=double)
        return x.grad, v.grad
    _both_ways(run)


def test_grad_reads_a_leaf_sum():
    rs = numpy.random.RandomState(9)
    W = _d(rs.randn(3, 2))
    xs = [_d(rs.randn(4, 2)) for _ in range(3)]
    y = F.sum(sum(F.linear(x, W) for x in xs))
    gW, = chainer.grad([y], [W])
    ref = sum(numpy.ones((4, 3)).T @ x.array for x in xs)
    numpy.testing.assert_allclose(gW.array, ref, rtol=1e-12)
    assert W.grad is None


def test_embedding_rows_summed_over_steps_and_tied_weights():
    rs = numpy.random.RandomState(10)
    E0 = rs.randn(7, 3)
    ids = [numpy.array([1, 2, 1, -1], numpy.int32) for _ in range(4)]

    def run(double):
        E = _d(E0)
        loss = 0
        for k, x in enumerate(ids):
            h = F.embed_id(x, E, ignore_label=-1 if k % 2 else None) \
                if k % 2 else F.embed_id(x % 7, E)
            # tied: E is also the weight of the output projection
            loss += F.sum(F.linear(h, E) ** 2)
        loss.backward(enable_double_backprop=double)
        return E.grad,
    gE, = _both_ways(run)
    assert gE.shape == (7, 3)


def test_functions_run_from_the_highest_rank_down():
    # Chains (which skip the heap) and branches (which use it) mixed.
    x = _v([1., 2.])
    a = F.tanh(x * 2)
    b = F.tanh(F.tanh(F.tanh(x)))
    y = F.sum(a * b + F.exp(a) + b)
    ranks = []

    class Hook(chainer.FunctionHook):
        name = 'ranks'

        def backward_preprocess(self, function, in_data, out_grad):
            ranks.append(function.rank)

    with Hook():
        y.backward()
    assert ranks == sorted(ranks, reverse=True)
    assert len(ranks) == 10
    gx = x.grad.copy()
    x.cleargrad()
    y.backward(enable_double_backprop=True)
    numpy.testing.assert_array_equal(x.grad, gx)
