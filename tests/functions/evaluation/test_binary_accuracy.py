import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType


Y = numpy.array([[-1., 2.], [0., -0.5], [3, -3]], numpy.float32)
T = numpy.array([[0, 1], [1, -1], [1, 1]], numpy.int32)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_binary_accuracy(dtype):
    acc = F.binary_accuracy(Y.astype(dtype), T)
    assert acc.shape == () and acc.dtype == dtype
    assert acc.creator.label == 'BinaryAccuracy'
    # 0 predicts positive; -1 is ignored; 4 of the 5 others are right.
    numpy.testing.assert_allclose(acc.array, 0.8, rtol=1e-3)


def test_random_against_reference():
    rng = numpy.random.RandomState(0)
    y = rng.randn(7, 3).astype(numpy.float32)
    t = rng.randint(-1, 2, (7, 3)).astype(numpy.int64)
    keep = t != -1
    expected = (((y >= 0) == t) & keep).sum() / keep.sum()
    numpy.testing.assert_allclose(F.binary_accuracy(y, t).array, expected,
                                  rtol=1e-6)


def test_all_ignored_and_empty():
    assert float(F.binary_accuracy(Y, -numpy.ones_like(T)).array) == 0.
    e = F.binary_accuracy(numpy.zeros((0,), numpy.float32),
                          numpy.zeros((0,), numpy.int32))
    assert float(e.array) == 0.


def test_errors():
    with pytest.raises(InvalidType, match='t.shape == x.shape'):
        F.binary_accuracy(Y, T[0])
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.binary_accuracy(Y, T.astype(numpy.float32))
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.binary_accuracy(Y.astype(numpy.int32), T)
