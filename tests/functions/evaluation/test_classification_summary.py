import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType

Y = numpy.array([[0.1, 0.9, 0], [0.8, 0.2, 0], [0.3, 0.7, 0], [0, 0, 1],
                 [0.5, 0.1, 0.4]], numpy.float32)
T = numpy.array([1, 0, 0, 2, -1], numpy.int32)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_summary(dtype):
    p, r, f, s = F.classification_summary(Y.astype(dtype), T)
    assert p.creator.label == 'ClassificationSummary'
    assert p.dtype == r.dtype == f.dtype == numpy.float64
    assert s.dtype.kind == 'i'
    numpy.testing.assert_allclose(p.array, [1, 0.5, 1])
    numpy.testing.assert_allclose(r.array, [0.5, 1, 1])
    numpy.testing.assert_allclose(f.array, [2 / 3, 2 / 3, 1])
    numpy.testing.assert_array_equal(s.array, [2, 1, 1])


def test_beta_and_label_num():
    _, _, f, _ = F.classification_summary(Y, T, beta=2.)
    numpy.testing.assert_allclose(f.array, [5 / 9, 5 / 6, 1])
    p, r, f, s = F.classification_summary(Y, T, label_num=5)
    numpy.testing.assert_array_equal(s.array, [2, 1, 1, 0, 0])
    assert numpy.isnan(p.array[3:]).all() and numpy.isnan(f.array[3:]).all()
    p, _, _, s = F.classification_summary(Y, T, label_num=2)
    assert p.shape == s.shape == (2,)


def test_nan_for_empty_classes():
    p, r, f, s = F.classification_summary(Y, numpy.ones(5, numpy.int32))
    numpy.testing.assert_allclose(p.array, [0, 1])
    assert numpy.isnan(r.array[0]) and r.array[1] == 0.4
    numpy.testing.assert_array_equal(s.array, [0, 5])


def test_all_ignored_and_spatial():
    p, r, f, s = F.classification_summary(Y, numpy.full(5, -1, numpy.int32))
    assert p.shape == (0,)
    y = numpy.zeros((2, 3, 4), numpy.float32)
    y[:, 1] = 1
    _, r, _, s = F.classification_summary(y, numpy.ones((2, 4), numpy.int32))
    numpy.testing.assert_array_equal(s.array, [0, 8])
    numpy.testing.assert_allclose(r.array[1], 1)


def test_wrappers():
    p, r, f, s = F.classification_summary(Y, T, label_num=4)
    for fn, expected in ((F.precision, p), (F.recall, r), (F.f1_score, f)):
        value, support = fn(Y, T, label_num=4)
        numpy.testing.assert_array_equal(value.array, expected.array)
        numpy.testing.assert_array_equal(support.array, s.array)


def test_errors():
    with pytest.raises(InvalidType, match=r'x.shape\[0\] == t.shape\[0\]'):
        F.classification_summary(Y, T[:3])
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.classification_summary(Y, T.astype(numpy.float32))
    with pytest.raises(InvalidType, match='x.dtype.kind == f'):
        F.classification_summary(Y.astype(numpy.int32), T)
    with pytest.raises(ValueError):
        # -1 is not ignored here, and negative labels cannot be counted.
        F.classification_summary(Y, T, ignore_label=0)
