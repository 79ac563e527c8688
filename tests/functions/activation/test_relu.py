import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.activation.relu import ReLU, ReLUGrad
from chainer.utils.type_check import InvalidType
from op_harness import check_op, spy_calls


def away_from_zero(rng, shape, dtype):
    # Keep clear of the kink at 0 for the numerical gradients.
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 1, shape)
    return numpy.asarray(x, dtype)


@pytest.mark.parametrize('shape', [(3, 2), (), (1, 3, 1)])
def test_relu(shape):
    check_op(F.relu, lambda rng, dt: (away_from_zero(rng, shape, dt),),
             lambda x: numpy.maximum(x, 0))


def test_values_and_creator():
    x = chainer.Variable(numpy.array([-1., 0., 2.], numpy.float32))
    y = F.relu(x)
    assert isinstance(y.creator, ReLU)
    numpy.testing.assert_array_equal(y.array, [0, 0, 2])
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    # The gradient at 0 is 0.
    numpy.testing.assert_array_equal(x.grad, [0, 0, 1])


def test_double_backprop_node():
    x = chainer.Variable(numpy.array([-1., 2.], numpy.float32))
    gx, = chainer.grad([F.sum(F.relu(x) * F.relu(x))], [x],
                       enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, [0, 4])
    assert isinstance(gx.creator, ReLUGrad) or gx.creator is not None
    F.sum(gx).backward()
    numpy.testing.assert_allclose(x.grad, [0, 2])


def test_empty():
    y = F.relu(numpy.zeros((0, 3), numpy.float32))
    assert y.shape == (0, 3) and y.dtype == numpy.float32


def test_int_input():
    with pytest.raises(InvalidType, match='ReLU'):
        F.relu(numpy.array([1, -1], numpy.int32))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_array_step_matches_the_recorded_one(dtype):
    # without double backprop the gradient is computed on arrays
    # (ReLU._backward_arrays): the same values, -0. included, and a 0-d
    # gradient is an array of the dtype, not a NumPy scalar
    rng = numpy.random.RandomState(3)
    for shape in [(), (4, 3), (2, 3, 4, 5)]:
        x0 = numpy.asarray(rng.randn(*shape), dtype)
        g0 = numpy.asarray(rng.randn(*shape), dtype)
        grads = []
        for double in (False, True):
            x = chainer.Variable(x0.copy())
            y = F.relu(x)
            y.grad = g0.copy()
            y.backward(enable_double_backprop=double)
            assert type(x.grad) is numpy.ndarray and x.grad.dtype == dtype
            grads.append(x.grad)
        numpy.testing.assert_array_equal(grads[0], grads[1])
        numpy.testing.assert_array_equal(numpy.signbit(grads[0]),
                                         numpy.signbit(g0 * (x0 > 0)))
        numpy.testing.assert_array_equal(grads[0], g0 * (x0 > 0))
    # a conv-like (channels-last) y against a C-contiguous gy
    x0 = rng.randn(2, 5, 5, 3).astype(dtype).transpose(0, 3, 1, 2)
    x = chainer.Variable(x0)
    y = F.relu(x)
    g0 = rng.randn(*y.shape).astype(dtype)
    y.grad = g0
    y.backward()
    assert x.grad.flags.c_contiguous
    numpy.testing.assert_array_equal(x.grad, g0 * (x0 > 0))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('threads', [1, 2])
def test_large_arrays_have_numpy_bits(monkeypatch, dtype, threads):
    # From _LOOPS_SIZE items the C loops take ReLU and its gradient (split
    # among threads): the bits of numpy.maximum(x, 0) and gy * (y > 0),
    # -0 and NaN included, and the same for any thread count.
    from chainer.functions.activation import relu as relu_mod
    from chainer.utils import conv_nd
    if relu_mod._loops is None:
        pytest.skip('the C loops are not built')
    real = relu_mod._loops
    calls = spy_calls(monkeypatch, relu_mod)
    rng = numpy.random.RandomState(5)
    shape = (3, relu_mod._LOOPS_SIZE // 3 + 5)  # ragged across chunks
    x = rng.randn(*shape).astype(dtype)
    gy = rng.randn(*shape).astype(dtype)
    x[0, :6] = [-0.0, 0.0, numpy.nan, -numpy.nan, numpy.inf, -numpy.inf]
    gy[0, 6:9] = [numpy.nan, -1.0, numpy.inf]
    x[0, 6:9] = [-1, -2, 1]  # NaN and -1 under a closed mask
    real.set_threads(threads)
    try:
        v = chainer.Variable(x)
        y = F.relu(v)
        y.grad = gy
        y.backward()
    finally:
        real.set_threads(conv_nd.DEFAULT_THREADS)
    assert calls == ['relu', 'relu_grad']
    r = numpy.maximum(x, dtype(0))
    itype = numpy.int32 if dtype == numpy.float32 else numpy.int64
    assert (y.array.view(itype) == r.view(itype)).all()
    assert (v.grad.view(itype) == (gy * (r > 0)).view(itype)).all()
    assert numpy.signbit(v.grad[0, 7])  # -1 * 0: -0, as NumPy's product


@pytest.mark.parametrize('x, refused', [
    (numpy.ones((2, 2), numpy.float32), 'both'),  # small
    (numpy.ones((1 << 17, 2), numpy.float32).T, 'both'),  # strided
    (numpy.ones(1 << 17, numpy.float16), 'both'),  # float16
    # not in the machine's byte order (its ReLU, NumPy's, is native)
    (numpy.ones(1 << 17, '>f4'), 'relu'),
])
def test_small_strided_and_half_arrays_keep_numpy(monkeypatch, x, refused):
    from chainer.functions.activation import relu as relu_mod
    if relu_mod._loops is None:
        pytest.skip('the C loops are not built')
    real = relu_mod._loops

    class Refuse:
        def __getattr__(self, name):
            if refused in ('both', name):
                raise AssertionError('the C loops were called')
            return getattr(real, name)
    monkeypatch.setattr(relu_mod, '_loops', Refuse())
    v = chainer.Variable(x)
    y = F.relu(v)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(y.array, numpy.maximum(x, 0))
    numpy.testing.assert_array_equal(v.grad, (x > 0).astype(x.dtype))


def test_loops_refuse_bad_arrays_naming_them():
    from chainer.functions.activation import relu as relu_mod
    loops = relu_mod._loops
    if loops is None:
        pytest.skip('the C loops are not built')
    a = numpy.zeros(10, numpy.float32)
    with pytest.raises(TypeError, match='relu x: expected 10 C-contiguous '
                                        'float32 items'):
        loops.relu(a, a.astype(numpy.float64), 10)
    with pytest.raises(TypeError, match='relu y: expected 11'):
        loops.relu(a, a, 11)
    with pytest.raises(TypeError, match='relu_grad gy'):
        loops.relu_grad(a, a, a[:5], 10)
    with pytest.raises(TypeError, match='relu_grad gx'):
        loops.relu_grad(a[:4], a[:5], a[:5], 5)
    with pytest.raises(ValueError, match='not C-contiguous'):
        loops.relu_grad(a[::2], a[:5], a[:5], 5)  # the buffer protocol's
    with pytest.raises(ValueError, match='negative size'):
        loops.relu(a, a, -1)
