import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def reference(y, t, ignore_label=None):
    pred = y.argmax(axis=1).reshape(t.shape)
    keep = numpy.ones(t.shape, bool) if ignore_label is None else \
        t != ignore_label
    total = keep.sum()
    return ((pred == t) & keep).sum() / total if total else 0.


Y = numpy.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], numpy.float32)
T = numpy.array([1, 0, 0], numpy.int32)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_accuracy_dtype(dtype):
    acc = F.accuracy(Y.astype(dtype), T)
    assert acc.shape == () and acc.dtype == dtype
    assert acc.creator.label == 'Accuracy'
    numpy.testing.assert_allclose(acc.array, 2 / 3, rtol=1e-3)


@pytest.mark.parametrize('ignore_label', [None, 0, 1, 5])
def test_accuracy_random(ignore_label):
    rng = numpy.random.RandomState(0)
    y = rng.randn(10, 3, 2).astype(numpy.float32)
    t = rng.randint(0, 3, (10, 2)).astype(numpy.int64)
    acc = F.accuracy(y, t, ignore_label=ignore_label)
    assert acc.dtype == numpy.float32
    numpy.testing.assert_allclose(acc.array, reference(y, t, ignore_label),
                                  rtol=1e-6)


def test_all_ignored_and_empty():
    acc = F.accuracy(Y, numpy.full(3, -1, numpy.int32), ignore_label=-1)
    assert float(acc.array) == 0.
    e = F.accuracy(numpy.zeros((0, 2), numpy.float32),
                   numpy.zeros((0,), numpy.int32))
    assert numpy.isnan(e.array) and e.dtype == numpy.float32
    e = F.accuracy(numpy.zeros((0, 2), numpy.float32),
                   numpy.zeros((0,), numpy.int32), ignore_label=-1)
    assert float(e.array) == 0.


def test_no_gradient():
    y = chainer.Variable(Y.copy())
    F.accuracy(y, T).backward()
    assert y.grad is None


def test_errors():
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.accuracy(Y, T.astype(numpy.float32))
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.accuracy(Y, T.astype(numpy.uint8))
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.accuracy(Y.astype(numpy.int32), T)
    with pytest.raises(InvalidType, match=r'x.shape\[0\] == t.shape\[0\]'):
        F.accuracy(Y, T[:2])
    with pytest.raises(InvalidType, match=r'x.ndim > t.ndim'):
        F.accuracy(Y, T[:, None])
    with pytest.raises(InvalidType, match=r'x.shape\[2:3\] == t.shape\[1:\]'):
        F.accuracy(numpy.zeros((3, 2, 4), numpy.float32),
                   numpy.zeros((3, 5), numpy.int32))


@pytest.mark.parametrize('x_shape,t_shape', [
    ((10, 3, 2), (10,)), ((10, 3, 1, 2), (10,)), ((10, 3, 5, 2), (10, 5))])
def test_axes_beyond_the_labels_must_have_length_one(x_shape, t_shape):
    from chainer.utils.type_check import InvalidType
    x = numpy.zeros(x_shape, numpy.float32)
    t = numpy.zeros(t_shape, numpy.int32)
    with pytest.raises(InvalidType, match=r'x.shape\[\d\] == 1'):
        F.accuracy(x, t)


@pytest.mark.parametrize('x_shape,t_shape', [
    ((4, 3, 1, 1), (4,)), ((4, 3, 5, 1), (4, 5))])
def test_trailing_axes_of_length_one_are_fine(x_shape, t_shape):
    x = numpy.random.RandomState(0).rand(*x_shape).astype(numpy.float32)
    t = x.argmax(axis=1).reshape(t_shape).astype(numpy.int32)
    assert float(F.accuracy(x, t).array) == 1.0
