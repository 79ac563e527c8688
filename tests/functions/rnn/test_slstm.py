import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# Computed with Chainer 7.8.1: c1, c2 (2, 2), x1, x2 (2, 8), drawn in this
# order from RandomState(2).
SLSTM_CN = [[-1.25399716, -0.80074793], [-0.9235601, 0.11629828]]
SLSTM_H = [[-0.63800204, -0.55606998], [-0.57999798, 0.04517734]]


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _slstm_ref(c1, c2, x1, x2):
    def gates(x):
        r = x.reshape((len(x), x.shape[1] // 4, 4) + x.shape[2:])
        return [r[:, :, k] for k in range(4)]

    a1, i1, f1, o1 = gates(x1)
    a2, i2, f2, o2 = gates(x2)
    c = numpy.tanh(a1) * _sigmoid(i1) + numpy.tanh(a2) * _sigmoid(i2) + \
        _sigmoid(f1) * c1 + _sigmoid(f2) * c2
    return c, _sigmoid(o1 + o2) * numpy.tanh(c)


@pytest.mark.parametrize('c_shape,x_shape', [((3, 2), (3, 8)),
                                             ((2, 1, 2), (2, 4, 2))])
def test_slstm(c_shape, x_shape):
    def make(rng, dt):
        return (rng.randn(*c_shape).astype(dt), rng.randn(*c_shape).astype(dt),
                rng.randn(*x_shape).astype(dt), rng.randn(*x_shape).astype(dt))

    check_op(F.slstm, make, _slstm_ref,
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_reference_values():
    rng = numpy.random.RandomState(2)
    c1, c2, x1, x2 = (rng.randn(2, 2), rng.randn(2, 2), rng.randn(2, 8),
                      rng.randn(2, 8))
    c, h = F.slstm(c1, c2, x1, x2)
    testing.assert_allclose(c.array, SLSTM_CN, atol=1e-8)
    testing.assert_allclose(h.array, SLSTM_H, atol=1e-8)
    assert c.creator.label == 'SLSTM'


def test_errors():
    c = numpy.ones((3, 2), 'f')
    x = numpy.ones((3, 8), 'f')
    with pytest.raises(InvalidType, match='c_prev1.shape\\[0\\] == x1.shape'):
        F.slstm(c, c, x[:2], x[:2])
    with pytest.raises(InvalidType, match='c_prev1.shape\\[0\\] == c_prev2'):
        F.slstm(c, c[:2], x, x)
    with pytest.raises(InvalidType, match='x2.shape\\[1\\] == 4'):
        F.slstm(c, c, x, x[:, :6])
    with pytest.raises(InvalidType, match='dtype'):
        F.slstm(c, c.astype('d'), x, x)
