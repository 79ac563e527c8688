import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform

special = pytest.importorskip('scipy.special')


def test_forward_backward():
    check_op(F.ndtr, lambda rng, dt: (uniform(rng, (3, 2), dt, -2, 2),),
             special.ndtr)


def test_known_values():
    y = F.ndtr(numpy.array([0., 1.959963984540054])).array
    numpy.testing.assert_allclose(y, [0.5, 0.975])


def test_node_and_shapes():
    y = F.ndtr(chainer.Variable(numpy.array(0.5, numpy.float32)))
    assert y.shape == () and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'Ndtr' and y.creator.label == 'ndtr'
    y.backward()
    y = F.ndtr(numpy.zeros((0, 2), numpy.float16))
    assert y.shape == (0, 2) and y.dtype == numpy.float16


def test_int_input():
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        F.ndtr(numpy.array([1, 2], numpy.int32))


@pytest.mark.parametrize('shape', [(3,), ()])
def test_without_scipy_falls_back(monkeypatch, shape):
    # As in Chainer, it still works on the CPU without SciPy (slowly).
    x = numpy.linspace(-2, 2, 3)[:shape[0] if shape else 1]
    x = x.reshape(shape).astype(numpy.float32)
    expected = special.ndtr(x.astype(numpy.float64))
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    y = F.ndtr(x)
    assert y.dtype == numpy.float32 and y.shape == shape
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
