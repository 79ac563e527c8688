import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def test_forward_backward():
    check_op(F.erfcx, lambda rng, dt: (uniform(rng, (3, 2), dt, -1, 3),),
             special.erfcx)


def test_known_values():
    # erfcx stays finite where exp(x^2) erfc(x) would be inf * 0.
    y = F.erfcx(numpy.array([0., 30.], numpy.float32)).array
    numpy.testing.assert_allclose(y, [1., 1 / (30 * numpy.sqrt(numpy.pi))],
                                  rtol=1e-3)


def test_node_and_shapes():
    y = F.erfcx(chainer.Variable(numpy.array(0.5, numpy.float32)))
    assert y.shape == () and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'Erfcx' and y.creator.label == 'erfcx'
    y.backward()
    y = F.erfcx(numpy.full((0, 2), 0.5, numpy.float16))
    assert y.shape == (0, 2) and y.dtype == numpy.float16


def test_int_input():
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.erfcx(numpy.array([1, 2], numpy.int32))


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='erfcx requires SciPy'):
        F.erfcx(numpy.array([0.5], numpy.float32))
