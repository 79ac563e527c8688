import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import minmax
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _distinct(rng, shape, dtype):
    # Well separated values, so a small step never changes the winner.
    n = int(numpy.prod(shape))
    return (rng.permutation(n).reshape(shape) * 0.25 - 1).astype(dtype)


@pytest.mark.parametrize('axis,keepdims', [
    (None, False), (1, False), (-1, True), ((0, 2), False), ((0, 2), True),
])
def test_max_min(axis, keepdims):
    for f, ref in ((F.max, numpy.amax), (F.min, numpy.amin)):
        check_op(lambda x: f(x, axis=axis, keepdims=keepdims),
                 lambda rng, dt: _distinct(rng, (2, 3, 2), dt),
                 lambda x: ref(x, axis=axis, keepdims=keepdims))


def test_max_scalar_input():
    check_op(F.max, lambda rng, dt: (numpy.array(1.5, dt),), lambda x: x)
    x = chainer.Variable(numpy.array(1.5, numpy.float32))
    y = F.max(x)
    assert y.shape == () and float(y.array) == 1.5
    y.backward()
    assert float(x.grad) == 1


def test_max_creator_and_ties():
    x = chainer.Variable(numpy.array([[1., 3., 3.], [2., 0., 1.]],
                                     numpy.float32))
    y = F.max(x, axis=1)
    assert isinstance(y.creator, minmax.Max)
    assert isinstance(F.min(x).creator, minmax.Min)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    # Every tied maximum receives the gradient.
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 1], [1, 0, 0]])


def test_max_zero_size_other_axis():
    y = F.max(numpy.zeros((0, 3), numpy.float32), axis=1)
    assert y.shape == (0,)


def test_max_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='Max'):
        F.max(numpy.arange(3))
    with pytest.raises(InvalidType):
        F.max(x, axis=3)
    with pytest.raises(ValueError, match='duplicate'):
        F.min(x, axis=(0, 0))
    with pytest.raises(TypeError):
        F.max(x, axis=1.0)
    with pytest.raises(ValueError):
        F.max(numpy.zeros((0, 3), numpy.float32), axis=0)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_argmax_argmin(dtype):
    x = _distinct(numpy.random.RandomState(1), (3, 4), dtype)
    for f, ref, cls in ((F.argmax, numpy.argmax, minmax.ArgMax),
                        (F.argmin, numpy.argmin, minmax.ArgMin)):
        for axis in (None, 0, -1):
            y = f(x, axis=axis)
            assert y.dtype == numpy.int32
            assert isinstance(y.creator, cls)
            numpy.testing.assert_array_equal(y.array, ref(x, axis=axis))


def test_argmax_no_gradient():
    x = chainer.Variable(numpy.array([1., 3., 2.], numpy.float32))
    y = F.argmax(x)
    assert int(y.array) == 1
    assert x.grad is None


def test_argmax_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='None or int'):
        F.argmax(x, axis=(0, 1))
    with pytest.raises(InvalidType, match='ArgMax'):
        F.argmax(numpy.arange(3))
    with pytest.raises(InvalidType):
        F.argmin(x, axis=2)


@pytest.mark.parametrize('func', [F.argmax, F.argmin])
@pytest.mark.parametrize('axis, need', [(3, 3), (-3, 2)])
def test_argmax_axis_out_of_range_text_is_chainers(func, axis, need):
    with pytest.raises(InvalidType) as e:
        func(numpy.ones((2, 3), numpy.float32), axis=axis)
    assert str(e.value).endswith(
        'Expect: in_types[0].ndim > {}\nActual: 2 <= {}'.format(need, need))
