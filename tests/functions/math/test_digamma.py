import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def test_forward_backward():
    check_op(F.digamma, lambda rng, dt: (uniform(rng, (3, 2), dt, 0.5, 4),),
             special.digamma)


def test_known_values():
    y = F.digamma(numpy.array([1., 2.])).array
    numpy.testing.assert_allclose(y, [-numpy.euler_gamma,
                                      1 - numpy.euler_gamma])


def test_node_and_shapes():
    y = F.digamma(chainer.Variable(numpy.array(2.5, numpy.float32)))
    assert y.shape == () and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'DiGamma' and y.creator.label == 'digamma'
    y.backward()
    y = F.digamma(numpy.full((0, 2), 2.5, numpy.float16))
    assert y.shape == (0, 2) and y.dtype == numpy.float16


def test_int_input():
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.digamma(numpy.array([1, 2], numpy.int32))


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='digamma requires SciPy'):
        F.digamma(numpy.array([2.5], numpy.float32))
