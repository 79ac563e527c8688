import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape', [(3, 2), (), (2, 0)])
def test_tanh(shape):
    check_op(F.tanh, lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),),
             numpy.tanh, backward=0 not in shape,
             double_backward=0 not in shape)


def test_extremes():
    y = F.tanh(numpy.array([-1e4, 0, 1e4], numpy.float16))
    assert y.creator.label == 'Tanh' and y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [-1, 0, 1])


def test_errors():
    with pytest.raises(InvalidType, match='Tanh'):
        F.tanh(numpy.array([1], numpy.int32))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_zero_dim_gradient_is_an_array_of_the_dtype(dtype):
    # NumPy makes scalars of 0-d arithmetic, and under NumPy 1 a Python 1
    # would have turned 1 - y*y into float64
    x = chainer.Variable(numpy.array(0.5, dtype))
    y = F.tanh(x)
    y.grad = numpy.array(2., dtype)
    y.backward()
    assert type(x.grad) is numpy.ndarray and x.grad.dtype == dtype
    want = 2 * (1 - numpy.tanh(0.5) ** 2)
    numpy.testing.assert_allclose(x.grad, want, rtol=1e-3)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('shape', [(3, 5), (0, 4), (7,), (2, 3, 1)])
def test_tanh_grad_has_numpys_bits(dtype, shape):
    # the C loops' one pass (where built) rounds as NumPy's three do; the
    # same for the shape-specialized form a static replay uses, and for a
    # strided gy (NumPy's path)
    from chainer.functions.activation import tanh as tanh_mod
    rng = numpy.random.RandomState(5)
    y = numpy.tanh(rng.randn(*shape)).astype(dtype)
    gy = rng.randn(*shape).astype(dtype)
    expect = gy * (dtype(1) - y * y)

    def replayed(y, gy):  # (the call a static replay writes)
        gx = numpy.empty(y.shape, y.dtype)
        if tanh_mod._loops_take(y.shape, y.dtype) and \
                tanh_mod._loops.tanh_grad(gx, y, gy, y.size, True):
            return gx
        return tanh_mod._tanh_grad(y, gy)
    for grad in (tanh_mod._tanh_grad, replayed):
        gx = grad(y, gy)
        assert gx.dtype == dtype and gx.shape == shape
        numpy.testing.assert_array_equal(gx, expect)
    gyt = numpy.asfortranarray(rng.randn(*shape[::-1]).astype(dtype)).T
    numpy.testing.assert_array_equal(
        tanh_mod._tanh_grad(y, gyt), gyt * (dtype(1) - y * y))
    numpy.testing.assert_allclose(
        expect.astype(numpy.float64),
        gy.astype(numpy.float64) * (1 - y.astype(numpy.float64) ** 2),
        rtol=1e-2 if dtype == numpy.float16 else 1e-6, atol=1e-3)


def test_tanh_grad_loop_refuses_mixed_or_short_buffers():
    from chainer.functions.activation import tanh as tanh_mod
    if tanh_mod._loops is None:
        pytest.skip('the C loops are not built')
    y = numpy.zeros(4, numpy.float32)
    with pytest.raises(TypeError, match='tanh_grad gy: expected 4'):
        tanh_mod._loops.tanh_grad(numpy.empty(4, 'f'), y, y.astype('d'), 4)
    with pytest.raises(TypeError, match='tanh_grad gx: expected 5'):
        tanh_mod._loops.tanh_grad(numpy.empty(4, 'f'), y, y, 5)
    with pytest.raises(ValueError, match='negative size'):
        tanh_mod._loops.tanh_grad(y, y, y, -1)
