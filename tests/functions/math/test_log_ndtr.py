import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def test_forward_backward():
    check_op(F.log_ndtr, lambda rng, dt: (uniform(rng, (3, 2), dt, -3, 3),),
             special.log_ndtr)


def test_known_values():
    y = F.log_ndtr(numpy.array([0.], numpy.float32)).array
    numpy.testing.assert_allclose(y, [numpy.log(.5)], rtol=1e-6)


def test_stable_far_left_tail():
    # log(ndtr(-40)) underflows; log_ndtr and its gradient (about -x)
    # stay finite.
    x = chainer.Variable(numpy.array([-40., -10.], numpy.float32))
    y = F.log_ndtr(x)
    assert numpy.isfinite(y.array).all()
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [40.025, 10.098], rtol=1e-3)


def test_node_and_shapes():
    y = F.log_ndtr(chainer.Variable(numpy.array(0.5, numpy.float32)))
    assert y.shape == () and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'LogNdtr' and y.creator.label == 'log_ndtr'
    y.backward()
    y = F.log_ndtr(numpy.full((0, 2), 0.5, numpy.float16))
    assert y.shape == (0, 2) and y.dtype == numpy.float16


def test_int_input():
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.log_ndtr(numpy.array([1, 2], numpy.int32))


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='log_ndtr requires SciPy'):
        F.log_ndtr(numpy.array([0.5], numpy.float32))
