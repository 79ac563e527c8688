import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def test_forward_backward():
    check_op(F.lgamma, lambda rng, dt: (uniform(rng, (3, 2), dt, 0.5, 4),),
             special.gammaln)


def test_known_values():
    y = F.lgamma(numpy.array([1., 3., 5., -0.5])).array
    numpy.testing.assert_allclose(
        y, numpy.log([1., 2., 24., 2 * numpy.sqrt(numpy.pi)]), atol=1e-12)


def test_node_and_shapes():
    y = F.lgamma(chainer.Variable(numpy.array(2.5, numpy.float32)))
    assert y.shape == () and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'LGamma' and y.creator.label == 'lgamma'
    y.backward()
    y = F.lgamma(numpy.full((0, 2), 2.5, numpy.float16))
    assert y.shape == (0, 2) and y.dtype == numpy.float16


def test_int_input():
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.lgamma(numpy.array([1, 2], numpy.int32))


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='lgamma requires SciPy'):
        F.lgamma(numpy.array([2.5], numpy.float32))
