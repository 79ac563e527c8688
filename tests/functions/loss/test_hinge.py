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


def test_gradients_round_and_sign_as_chainer():
    # Chainer 7.8.1: gy / N, gy * sign(margin) with +0 where inactive (so
    # a zero gradient carries gy's sign), 2 * gy * margin for L2
    import chainer
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(4, 3).astype(numpy.float32))
    x.array[0, 0] = 2.  # an inactive label entry
    x2 = chainer.Variable(x.array.copy())
    t = numpy.array([0, 2, 1, 1], numpy.int32)
    gy = rs.randn(4, 3).astype(numpy.float32)
    gy[0, 0] = 0.5
    y = F.hinge(x, t, reduce='no')
    y.grad = gy
    y.backward()
    inactive = y.array == 0
    assert inactive[0, 0] and not numpy.signbit(x.grad[0, 0])
    assert (numpy.signbit(x.grad[inactive]) == (gy[inactive] < 0)).all()
    y = F.hinge(x2, t, norm='L2')
    y.grad = numpy.array(-0.7, numpy.float32)
    y.backward()
    s = numpy.where(numpy.arange(3) == t[:, None], -1, 1).astype(numpy.float32)
    bd = numpy.maximum(0, 1 + s * x.array) * s
    numpy.testing.assert_array_equal(
        x2.grad, 2 * (numpy.float32(-0.7) / numpy.float32(4)) * bd)
