import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import sum as sum_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis,keepdims', [
    ((2, 3), 1, False), ((2, 3, 2), (0, 2), False), ((2, 3, 2), -1, True),
    ((2, 3), None, True), ((3,), 0, False), ((0, 3), 0, False),
])
def test_sum(shape, axis, keepdims):
    check_op(lambda x: F.sum(x, axis=axis, keepdims=keepdims),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: numpy.sum(x, axis=axis, keepdims=keepdims))


def test_sum_all_and_0d():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = F.sum(x)
    assert isinstance(y.creator, sum_mod.Sum)
    assert y.shape == () and float(y.array) == 15
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.ones((2, 3)))
    s = chainer.Variable(numpy.array(2., numpy.float32))
    y = F.sum(s)
    y.backward()
    assert y.shape == () and float(s.grad) == 1


def test_sum_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='Sum'):
        F.sum(numpy.arange(3))
    with pytest.raises(InvalidType):
        F.sum(x, axis=2)
    with pytest.raises(ValueError, match='duplicate'):
        F.sum(x, axis=(0, -2))
    with pytest.raises(TypeError):
        F.sum(x, axis=1.)


@pytest.mark.parametrize('x_shape,shape', [
    ((2, 3), (1, 3)), ((2, 3), (3,)), ((2, 3, 2), (3, 1)), ((2, 3), ()),
    ((2, 3), (2, 1)),
])
def test_sum_to(x_shape, shape):
    def f(x):
        y = F.sum_to(x, shape)
        return F.reshape(y, (-1,)) if shape == () else y
    check_op(f, lambda rng, dt: (rng.randn(*x_shape).astype(dt),),
             lambda x: _ref_sum_to(x, shape))


def _ref_sum_to(x, shape):
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1)
    y = x.sum(axis=axes, keepdims=True).reshape(shape)
    return y.reshape(-1) if shape == () else y


def test_sum_to_same_shape_and_errors():
    x = numpy.ones((2, 3), numpy.float32)
    y = F.sum_to(x, (2, 3))
    assert isinstance(y, chainer.Variable) and y.shape == (2, 3)
    assert F.sum_to(x, 3).shape == (3,)
    with pytest.raises(ValueError, match='sum_to'):
        F.sum_to(x, (2,))
    with pytest.raises(ValueError):
        F.sum_to(x, (1, 2, 3))


def test_axis_error_wording_matches_chainer():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match=r'Sum \(Forward\)\n\nExpect: x.ndim > 2\n'
                       r'Actual: 2 <= 2'):
        F.sum(x, axis=2)
    with pytest.raises(InvalidType, match=r'Expect: x.ndim > 2\nActual: 2 <= 2'):
        F.sum(x, axis=-3)
    with pytest.raises(InvalidType, match=r'Mean \(Forward\)'):
        F.mean(x, axis=5)


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


def test_bits_match_chainer_long_sum():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    x = numpy.sin(numpy.arange(30000, dtype=numpy.float64)).astype(
        numpy.float32)
    out = {'sum': F.sum(x).array, 'mean': F.mean(x).array,
           'sum_ax1': F.sum(x.reshape(2, 15000), axis=1).array,
           'sum_4d': F.sum(x.reshape(2, 3, 50, 100), axis=(1, 2, 3)).array}
    expect = {
        'sum': numpy.array([
            1.86245596408844],
            numpy.float32).reshape(()),
        'mean': numpy.array([
            6.208186823641881e-05],
            numpy.float32).reshape(()),
        'sum_ax1': numpy.array([
            0.8796617984771729, 0.9827960729598999],
            numpy.float32).reshape((2,)),
        'sum_4d': numpy.array([
            0.8796617984771729, 0.9827960729598999],
            numpy.float32).reshape((2,)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32


def test_full_sum_backward_broadcasts_0d_gradient():
    # Chainer's graph for a full sum's gradient is one BroadcastTo of the
    # 0-d gradient (function hooks and computational graphs show it).
    seen = []

    class Hook(chainer.FunctionHook):
        def forward_preprocess(self, function, in_data):
            seen.append((function.label, [d.shape for d in in_data]))

    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.sum(x)
    with Hook():
        y.backward()
    assert seen == [('BroadcastTo', [()])]
    numpy.testing.assert_array_equal(x.grad, numpy.ones((2, 3), numpy.float32))


@pytest.mark.parametrize('shape,axis', [
    ((8192 * 3,), None), ((8192 * 2 + 5,), None), ((3, 8192 * 2), 1),
    ((2, 3, 4, 5000), (2, 3)), ((16, 128, 32, 32), None)])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_long_sum_adds_buffers_in_turn(shape, axis, dtype):
    # NumPy 1.x's order: each run of 8192 items summed on its own, the runs'
    # sums then added left to right (not pairwise, not all at once)
    x = (numpy.random.RandomState(1).standard_normal(shape) * 100).astype(
        dtype)
    axes = tuple(range(x.ndim)) if axis is None else \
        (axis,) if isinstance(axis, int) else axis
    flat = x.reshape(x.shape[:x.ndim - len(axes)] + (-1,))
    expect = flat[..., :8192].sum(axis=-1)
    for i in range(8192, flat.shape[-1], 8192):
        expect = expect + flat[..., i:i + 8192].sum(axis=-1)
    y = F.sum(x, axis=axis).array
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y, expect)
