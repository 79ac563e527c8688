import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

T = numpy.array([1, 0, 3], numpy.int32)


def _ref(x, t, norm, reduce):
    s = numpy.ones_like(x)
    s[numpy.arange(len(t)), t] = -1
    h = numpy.maximum(1 + s * x, 0)
    if norm == 'L2':
        h = h * h
    return h if reduce == 'no' else h.sum() / len(t)


def _make(rng, dt):
    # Keep 1 + s * x away from 0, the kink.
    x = rng.choice([-1, 1], (3, 4)) * rng.uniform(0.2, 0.8, (3, 4)) + \
        rng.choice([-1, 1], (3, 4))
    return x.astype(dt),


@pytest.mark.parametrize('norm', ['L1', 'L2'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_hinge(norm, reduce):
    check_op(lambda x: F.hinge(x, on_device(T), norm, reduce), _make,
             lambda x: _ref(x, T, norm, reduce))


def test_matches_chainer_value():
    x = numpy.random.RandomState(0).randn(3, 4).astype(numpy.float32)
    y = F.hinge(x, T)
    numpy.testing.assert_allclose(
        y.array, _ref(x.astype(numpy.float64), T, 'L1', 'mean'), rtol=1e-6)
    assert type(y.creator).__name__ == 'Hinge'


def test_errors():
    x = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(NotImplementedError, match="'L1' or 'L2'"):
        F.hinge(x, T, norm='L3')
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.hinge(x, T, reduce='sum')
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.hinge(x, T.astype(numpy.float32))
    with pytest.raises(InvalidType, match='x.shape\\[0\\] == t.shape\\[0\\]'):
        F.hinge(x, T[:2])
    with pytest.raises(InvalidType, match='x.ndim == 2'):
        F.hinge(x[None], T)
    with pytest.raises(IndexError, match='label 7'):
        F.hinge(x, numpy.array([1, 0, 7], numpy.int32))
