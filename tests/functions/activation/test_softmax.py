import numpy
import pytest

import chainer.functions as F
from op_harness import check_op


def reference(axis):
    def f(x):
        e = numpy.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    return f


@pytest.mark.parametrize('shape,axis', [((2, 3), 1), ((3, 2, 2), 0),
                                        ((2, 4), -1), ((3,), 0)])
def test_softmax(shape, axis):
    check_op(lambda x: F.softmax(x, axis),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),),
             reference(axis))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_stable_for_large_inputs(dtype):
    x = numpy.array([[1e4, -1e4, 0.], [5e3, 5e3, -5e3]], dtype)
    y = F.softmax(x).array
    numpy.testing.assert_allclose(y, [[1, 0, 0], [0.5, 0.5, 0]])


def test_creator_and_empty():
    assert F.softmax(numpy.ones((1, 2), numpy.float32)).creator.label == \
        'Softmax'
    assert F.softmax(numpy.zeros((0, 3), numpy.float32)).shape == (0, 3)


def test_errors():
    # Chainer 7.8.1's RuntimeError (see test_log_softmax)
    x = numpy.zeros((2, 3), numpy.float32)
    msg = '^An Expr instance cannot be evaluated as bool'
    with pytest.raises(RuntimeError, match=msg):
        F.softmax(x, axis=-3)
    with pytest.raises(RuntimeError, match=msg):
        F.softmax(x.astype(numpy.int64))
