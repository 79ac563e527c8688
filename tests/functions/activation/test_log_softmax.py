import numpy
import pytest

import chainer.functions as F
from op_harness import check_op


def reference(axis):
    def f(x):
        m = x.max(axis=axis, keepdims=True)
        return x - m - numpy.log(numpy.exp(x - m).sum(axis=axis,
                                                      keepdims=True))
    return f


@pytest.mark.parametrize('shape,axis', [((2, 3), 1), ((3, 2, 2), 0),
                                        ((2, 4), -1), ((3,), 0)])
def test_log_softmax(shape, axis):
    check_op(lambda x: F.log_softmax(x, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),),
             reference(axis))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_stable_for_large_inputs(dtype):
    x = numpy.array([[1e4, -1e4, 0.], [5e3, 5e3, -5e3]], dtype)
    y = F.log_softmax(x).array
    assert numpy.isfinite(y).all()
    numpy.testing.assert_allclose(
        y, [[0, -2e4, -1e4], [-numpy.log(2), -numpy.log(2), -1e4]],
        rtol=1e-3)


def test_empty():
    assert F.log_softmax(numpy.zeros((0, 3), numpy.float32)).shape == (0, 3)
    assert F.log_softmax(numpy.zeros((2, 0), numpy.float32)).shape == (2, 0)


def test_errors():
    # Chainer 7.8.1's check is a chained comparison over an Expr: a
    # RuntimeError for every bad input
    x = numpy.zeros((2, 3), numpy.float32)
    msg = '^An Expr instance cannot be evaluated as bool'
    with pytest.raises(RuntimeError, match=msg):
        F.log_softmax(x, axis=2)
    with pytest.raises(RuntimeError, match=msg):
        F.log_softmax(x.astype(numpy.int32))
    with pytest.raises(RuntimeError, match=msg):
        F.log_softmax(x[0])  # default axis=1 on a vector


def test_bits_match_chainer_order():
    # x - (m + log(sum(exp(x - m)))), as Chainer rounds it.
    x = numpy.random.RandomState(0).randn(4, 5).astype(numpy.float32)
    m = x.max(axis=1, keepdims=True)
    ref = x - (m + numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True)))
    numpy.testing.assert_array_equal(F.log_softmax(x).array, ref)
