import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType

P = numpy.array([[1, 2], [2, 3.5], [3, 1]], numpy.float32)
Q = numpy.array([[1.5, 2], [2, 3], [2.5, 1.5]], numpy.float32)


def reference(p, t):
    ss_res = ((t - p) ** 2).sum(axis=0)
    ss_tot = ((t - t.mean(axis=0)) ** 2).sum(axis=0)
    return 1 - ss_res / ss_tot


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_r2_score(dtype):
    r = F.r2_score(P.astype(dtype), Q.astype(dtype))
    assert r.shape == () and r.dtype == dtype
    assert r.creator.label == 'R2_score'
    numpy.testing.assert_allclose(r.array, 2 / 7, rtol=1e-3)
    raw = F.r2_score(P.astype(dtype), Q.astype(dtype),
                     multioutput='raw_values')
    assert raw.shape == (2,) and raw.dtype == dtype
    numpy.testing.assert_allclose(raw.array, [0, 4 / 7], atol=1e-3)


def test_random_nd():
    rng = numpy.random.RandomState(0)
    p, t = rng.randn(2, 5, 2, 3)
    r = F.r2_score(p, t, multioutput='raw_values')
    assert r.shape == (2, 3)
    numpy.testing.assert_allclose(r.array, reference(p, t))
    numpy.testing.assert_allclose(F.r2_score(p, t).array,
                                  reference(p, t).mean())


def test_constant_target_and_empty():
    one = numpy.ones((3, 2), numpy.float32)
    numpy.testing.assert_array_equal(
        F.r2_score(one, one, multioutput='raw_values').array, [0, 0])
    e = F.r2_score(numpy.zeros((0, 2), numpy.float32),
                   numpy.zeros((0, 2), numpy.float32))
    assert float(e.array) == 0.


def test_true_of_another_dtype():
    r = F.r2_score(P, Q.astype(numpy.float64))
    assert r.dtype == numpy.float32


def test_errors():
    with pytest.raises(ValueError, match='invalid multioutput'):
        F.r2_score(P, Q, multioutput='foo')
    with pytest.raises(NotImplementedError):
        F.r2_score(P, Q, sample_weight=numpy.ones(3))
    with pytest.raises(InvalidType, match='pred.shape == true.shape'):
        F.r2_score(P, Q[:2])
    with pytest.raises(InvalidType, match='pred.dtype.kind == f'):
        F.r2_score(P.astype(numpy.int32), Q)
