import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import fft as fft_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=3e-2, rtol=3e-2)}


def _ref(method):
    def ref(r, i):
        y = getattr(numpy.fft, method)(r + 1j * i)
        return y.real, y.imag
    return ref


@pytest.mark.parametrize('method', ['fft', 'ifft'])
@pytest.mark.parametrize('shape', [(2, 4), (3,), (2, 1, 3)])
def test_fft(method, shape):
    f = getattr(F, method)
    check_op(lambda r, i: f((r, i)),
             lambda rng, dt: (rng.randn(*shape).astype(dt),
                              rng.randn(*shape).astype(dt)),
             _ref(method), fwd_tol=TOL16, bwd_tol=TOL16)


def test_fft_roundtrip_and_creator():
    r = chainer.Variable(numpy.arange(4, dtype=numpy.float32).reshape(1, 4))
    i = numpy.ones((1, 4), numpy.float32)
    yr, yi = F.fft((r, i))
    assert isinstance(yr.creator, fft_mod.FFT)
    numpy.testing.assert_allclose(yr.array, [[6, -2, -2, -2]])
    numpy.testing.assert_allclose(yi.array, [[4, 2, 0, -2]])
    zr, zi = F.ifft([yr, yi])
    numpy.testing.assert_allclose(zr.array, r.array, atol=1e-6)
    numpy.testing.assert_allclose(zi.array, i, atol=1e-6)
    # Only one output used: the other gets a zero gradient.
    F.sum(yr).backward()
    numpy.testing.assert_allclose(r.grad, [[4, 0, 0, 0]])


def test_fft_dtype_and_empty():
    r = numpy.ones(4, numpy.float16)
    assert F.fft((r, r))[0].dtype == numpy.float16
    yr, yi = F.ifft((numpy.zeros((0, 4)), numpy.zeros((0, 4))))
    assert yr.shape == (0, 4)


def test_fft_errors():
    r = numpy.ones((1, 4), numpy.float32)
    with pytest.raises(InvalidType, match='real.dtype == imag.dtype'):
        F.fft((r, r.astype(numpy.float64)))
    with pytest.raises(InvalidType, match='real.shape == imag.shape'):
        F.fft((r, numpy.ones((1, 3), numpy.float32)))
    with pytest.raises(InvalidType, match='FFT'):
        F.ifft((numpy.ones(2, numpy.int32), numpy.ones(2, numpy.int32)))
    with pytest.raises(TypeError, match='real, imag'):
        F.fft(r)
