import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, on_device, uniform

special = pytest.importorskip('scipy.special')


@pytest.mark.parametrize('x', [2.5, numpy.array([[2.], [3.5]])])
def test_forward_backward(x):
    check_op(lambda q: F.zeta(on_device(x), q),
             lambda rng, dt: (uniform(rng, (2, 3), dt, 1, 3),),
             lambda q: special.zeta(x, q))


def test_q_broadcast_against_x():
    x = numpy.array([[2.], [3.]])
    check_op(lambda q: F.zeta(on_device(x), q),
             lambda rng, dt: (uniform(rng, (1, 3), dt, 1, 3),),
             lambda q: special.zeta(x, q))


def test_known_values():
    y = F.zeta(2., numpy.array([1., 2.]))
    numpy.testing.assert_allclose(y.array, [numpy.pi ** 2 / 6,
                                            numpy.pi ** 2 / 6 - 1])


def test_node_dtypes_shapes():
    q = chainer.Variable(numpy.array(2., numpy.float16))
    y = F.zeta(chainer.Variable(numpy.array(3.)), q)
    assert y.shape == () and y.dtype == numpy.float16
    assert type(y.creator).__name__ == 'Zeta' and y.creator.label == 'zeta'
    # Only q is an input of the graph.
    assert len(y.creator.inputs) == 1
    y.backward()
    numpy.testing.assert_allclose(q.grad, -3 * special.zeta(4., 2.),
                                  rtol=1e-2)
    assert F.zeta(2., numpy.zeros((0, 2), numpy.float32)).shape == (0, 2)


def test_errors(monkeypatch):
    with pytest.raises(type_check.InvalidType, match='q.dtype.kind == f'):
        F.zeta(2., numpy.array([1, 2], numpy.int32))
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='zeta requires SciPy'):
        F.zeta(2., numpy.array([1.], numpy.float32))
