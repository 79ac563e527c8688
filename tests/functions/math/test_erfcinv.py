import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def test_forward_backward():
    check_op(F.erfcinv, lambda rng, dt: (uniform(rng, (3, 2), dt, 0.2, 1.8),),
             special.erfcinv)


def test_known_values():
    x = numpy.array([0.3, 1., 1.7])
    numpy.testing.assert_allclose(special.erfc(F.erfcinv(x).array), x)


def test_node_and_shapes():
    y = F.erfcinv(chainer.Variable(numpy.array(0.5, numpy.float32)))
    assert y.shape == () and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'ErfcInv' and y.creator.label == 'erfcinv'
    y.backward()
    y = F.erfcinv(numpy.full((0, 2), 0.5, numpy.float16))
    assert y.shape == (0, 2) and y.dtype == numpy.float16


def test_int_input():
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.erfcinv(numpy.array([1, 2], numpy.int32))


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='erfcinv requires SciPy'):
        F.erfcinv(numpy.array([0.5], numpy.float32))
