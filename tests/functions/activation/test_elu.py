import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def inputs(rng, shape, dtype):
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 2, shape)
    return (numpy.asarray(x, dtype),)


def reference(alpha):
    return lambda x: numpy.where(x > 0, x, alpha * (numpy.exp(x) - 1))


@pytest.mark.parametrize('alpha,shape', [(1.0, (3, 2)), (0.5, ()),
                                         (-0.3, (2, 1, 2))])
def test_elu(alpha, shape):
    check_op(lambda x: F.elu(x, alpha),
             lambda rng, dt: inputs(rng, shape, dt), reference(alpha))


def test_gradient_at_zero_and_large():
    x = chainer.Variable(numpy.array([-1., 0., 2., 1e4, -1e4], numpy.float32))
    y = F.elu(x, 0.5)
    assert numpy.isfinite(y.array).all()
    y.grad = numpy.ones(5, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(
        x.grad, [0.5 * numpy.exp(-1), 0.5, 1, 1, 0], rtol=1e-6)


def test_selu():
    a, s = 1.6732632423543772, 1.0507009873554805
    check_op(F.selu, lambda rng, dt: inputs(rng, (3, 2), dt),
             lambda x: s * reference(a)(x))
    check_op(lambda x: F.selu(x, 2., 3.),
             lambda rng, dt: inputs(rng, (2,), dt),
             lambda x: 3. * reference(2.)(x))


def test_errors():
    with pytest.raises(InvalidType, match='ELU'):
        F.elu(numpy.array([1], numpy.int32))
    with pytest.raises(InvalidType, match='ELU'):
        F.selu(numpy.array([1], numpy.int32))


def test_empty():
    assert F.elu(numpy.zeros((0,), numpy.float32)).shape == (0,)
