import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def _make(rng, dt):
    return (numpy.array([[0, 1], [2, 1], [0, 3]], numpy.int32),
            uniform(rng, (3, 2), dt, 0.8, 3))


def test_forward_backward():
    check_op(F.polygamma, _make, special.polygamma, no_grads=(True, False),
             check_dtype=False)


def test_broadcast_n():
    def make(rng, dt):
        return (numpy.array([[0], [1]], numpy.int32),
                uniform(rng, (1, 3), dt, 1, 3))
    check_op(F.polygamma, make, special.polygamma, no_grads=(True, False),
             check_dtype=False)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_known_values_and_dtype(dtype):
    y = F.polygamma(numpy.array([0, 1], numpy.int32),
                    numpy.array([1., 1.], dtype))
    assert y.dtype == dtype
    tol = 1e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(y.array, [-numpy.euler_gamma,
                                            numpy.pi ** 2 / 6], rtol=tol)


def test_node_and_n_gets_no_gradient():
    n = chainer.Variable(numpy.array(1, numpy.int32), requires_grad=False)
    x = chainer.Variable(numpy.array(2., numpy.float32))
    y = F.polygamma(n, x)
    assert y.shape == ()
    assert type(y.creator).__name__ == 'PolyGamma'
    assert y.creator.label == 'polygamma'
    y.backward()
    numpy.testing.assert_allclose(x.grad, special.polygamma(2, 2.),
                                  rtol=1e-6)
    assert n.grad is None
    z = F.polygamma(numpy.zeros((0,), numpy.int32),
                    numpy.zeros((0,), numpy.float32))
    assert z.shape == (0,)


def test_errors(monkeypatch):
    x = numpy.ones(2, numpy.float32)
    n = numpy.ones(2, numpy.int32)
    with pytest.raises(type_check.InvalidType, match='n.dtype.kind == i'):
        F.polygamma(x, x)
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.polygamma(n, n)
    with pytest.raises(TypeError):
        F.polygamma(1, x)
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='polygamma requires SciPy'):
        F.polygamma(n, x)
