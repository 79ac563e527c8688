import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check
from op_harness import check_op, uniform


def _in(low, high, shape=(3, 2)):
    return lambda rng, dt: (uniform(rng, shape, dt, low, high),)


@pytest.mark.parametrize('name,low,high', [
    ('sin', -3, 3), ('cos', -3, 3), ('tan', -1.2, 1.2),
    ('arcsin', -0.8, 0.8), ('arccos', -0.8, 0.8), ('arctan', -3, 3),
])
def test_unary(name, low, high):
    check_op(getattr(F, name), _in(low, high), getattr(numpy, name))


@pytest.mark.parametrize('name', ['sin', 'cos', 'tan', 'arcsin', 'arccos',
                                  'arctan'])
def test_unary_shapes_and_node(name):
    f = getattr(F, name)
    # 0-d: the harness cannot draw 0-d output gradients; check by hand.
    x = chainer.Variable(numpy.array(0.3, numpy.float64))
    y = f(x)
    assert y.shape == ()
    numpy.testing.assert_allclose(y.array, getattr(numpy, name)(0.3))
    y.backward()
    assert x.grad.shape == ()
    y = f(numpy.zeros((0, 3), numpy.float32))
    assert y.shape == (0, 3) and y.dtype == numpy.float32
    y = f(chainer.Variable(numpy.zeros(2, numpy.float32)))
    assert y.creator.label == name
    assert type(y.creator).__name__ == name.capitalize()


@pytest.mark.parametrize('name', ['sin', 'cos', 'tan', 'arcsin', 'arccos',
                                  'arctan'])
def test_unary_int_input(name):
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        getattr(F, name)(numpy.array([1, 2], numpy.int32))


def test_known_values():
    x = numpy.array([0., 1.], numpy.float64)
    numpy.testing.assert_allclose(F.arccos(x).array, [numpy.pi / 2, 0.])
    numpy.testing.assert_allclose(F.arctan(x).array, [0., numpy.pi / 4])
    numpy.testing.assert_allclose(F.tan(x).array, [0., 1.5574077246549023])


def _arctan2_in(rng, dt):
    x1 = uniform(rng, (3, 2), dt, 0.5, 2) * rng.choice([-1, 1], (3, 2))
    x2 = uniform(rng, (3, 2), dt, 0.5, 2) * rng.choice([-1, 1], (3, 2))
    return x1.astype(dt), x2.astype(dt)


def test_arctan2():
    check_op(F.arctan2, _arctan2_in, numpy.arctan2)


def test_arctan2_broadcast():
    def make(rng, dt):
        return (uniform(rng, (3, 1), dt, 0.5, 2),
                uniform(rng, (1, 2), dt, 0.5, 2))
    check_op(F.arctan2, make, numpy.arctan2)


def test_arctan2_quadrants_and_node():
    y = F.arctan2(chainer.Variable(numpy.array([1., -1.], numpy.float32)),
                  numpy.array([-1., -1.], numpy.float32))
    numpy.testing.assert_allclose(y.array, [3 * numpy.pi / 4,
                                            -3 * numpy.pi / 4], rtol=1e-6)
    assert type(y.creator).__name__ == 'Arctan2'
    assert y.creator.label == 'arctan2'


def test_arctan2_mixed_dtypes_promote():
    a = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    b = chainer.Variable(numpy.array([1., 3.], numpy.float64))
    y = F.arctan2(a, b)
    assert y.dtype == numpy.float64
    y.grad = numpy.ones(2)
    y.backward()
    assert a.grad.dtype == numpy.float32 and b.grad.dtype == numpy.float64
    numpy.testing.assert_allclose(a.grad, [.5, 3 / 13], rtol=1e-6)
    numpy.testing.assert_allclose(b.grad, [-.5, -2 / 13], rtol=1e-6)


def test_arctan2_errors():
    f = numpy.ones(2, numpy.float32)
    i = numpy.ones(2, numpy.int32)
    with pytest.raises(type_check.InvalidType, match='x1.dtype.kind == f'):
        F.arctan2(i, i)
    with pytest.raises(type_check.InvalidType, match='x2.dtype.kind == f'):
        F.arctan2(f, i)
    with pytest.raises(ValueError):
        F.arctan2(f, numpy.ones(3, numpy.float32))


def test_arctan_gradients_round_as_chainer():
    # Chainer 7.8.1's bits: gy * (1 / (1 + x^2)); x2 / sqnorm * gy
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(6).astype(numpy.float32))
    z = chainer.Variable(rs.randn(6).astype(numpy.float32))
    y = F.arctan(x)
    y.grad = rs.randn(6).astype(numpy.float32)
    y.backward()
    assert x.grad.tolist() == [
        0.18508262932300568, 0.10488088428974152, 0.22670046985149384,
        0.055412884801626205, 0.33292216062545776, -0.10493642091751099]
    x.cleargrad()
    y = F.arctan2(x, z)
    y.grad = rs.randn(6).astype(numpy.float32)
    y.backward()
    assert x.grad.tolist() == [
        0.07409101724624634, 0.7062785029411316, 0.27206429839134216,
        0.05170806124806404, 0.035489726811647415, -0.35156896710395813]
    assert z.grad.tolist() == [
        -0.13756659626960754, 1.867254614830017, 2.5797581672668457,
        -0.2822032570838928, -0.4601324796676636, -0.23625582456588745]
