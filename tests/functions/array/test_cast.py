import numpy
import pytest

import chainer
import chainer.functions as F
from op_harness import check_op

_FLOATS = (numpy.float16, numpy.float32, numpy.float64)
# float16 outputs round to ~1e-3 (the gradient of a cast is the identity).
_TOL = dict(atol=2e-2, rtol=2e-2)


@pytest.mark.parametrize('to', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(2, 3), (), (0,)])
def test_cast(to, shape):
    check_op(lambda x: F.cast(x, to),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: x.astype(to), check_dtype=False, eps=0.25,
             fwd_tol={d: _TOL for d in _FLOATS},
             bwd_tol={d: _TOL for d in _FLOATS})


def test_cast_dtypes_and_gradient_dtype():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = F.cast(x, numpy.float64)
    assert y.dtype == numpy.float64
    assert type(y.creator).__name__ == 'Cast'
    F.sum(y).backward()
    assert x.grad.dtype == numpy.float32
    assert F.cast(x, 'float16').dtype == numpy.float16
    assert F.cast(numpy.ones(2, numpy.float32), numpy.int32).dtype == \
        numpy.int32
    assert F.cast(numpy.arange(3), numpy.float32).dtype == numpy.float32


def test_cast_same_dtype():
    x = numpy.ones(2, numpy.float32)
    y = F.cast(x, numpy.float32)
    assert isinstance(y, chainer.Variable) and y.dtype == numpy.float32
    v = chainer.Variable(x)
    assert F.cast(v, numpy.float32).array is not None
    # Chainer records a Cast node while building a graph, even for a no-op
    # (raw arrays included), and hands the input back otherwise.
    assert isinstance(F.cast(v, numpy.float32).creator, F.array.cast.Cast)
    assert isinstance(y.creator, F.array.cast.Cast) and y.array is x
    with chainer.no_backprop_mode():
        assert F.cast(v, numpy.float32) is v


def test_cast_error():
    with pytest.raises(TypeError):
        F.cast(numpy.ones(2, numpy.float32), 'nonsense')
