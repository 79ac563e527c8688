import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


def away_from_zero(rng, shape, dtype):
    x = rng.choice([-1, 1], shape) * rng.uniform(0.2, 1, shape)
    return numpy.asarray(x, dtype)


@pytest.mark.parametrize('shape', [(3, 2), ()])
def test_rrelu_given_r(shape):
    r = numpy.random.RandomState(1).uniform(0.1, 0.3, shape)
    check_op(lambda x: F.rrelu(x, r=on_device(r.astype(x.dtype))),
             lambda rng, dt: (away_from_zero(rng, shape, dt),),
             lambda x: numpy.where(x >= 0, x, x * r))


def test_random_r_is_reproducible():
    x = numpy.array([[1, -2, 3], [-0.5, -1, 2]], numpy.float32)
    numpy.random.seed(0)
    y, r = F.rrelu(x, return_r=True)
    assert y.creator.label == 'RReLU' and r.dtype == numpy.float32
    numpy.random.seed(0)
    expected_r = numpy.random.uniform(1 / 8, 1 / 3, (2, 3)).astype(
        numpy.float32)
    numpy.testing.assert_array_equal(r, expected_r)
    numpy.testing.assert_array_equal(y.array, numpy.where(x >= 0, x, x * r))
    assert ((r >= 1 / 8) & (r < 1 / 3)).all()


def test_test_mode_uses_the_mean_slope():
    x = numpy.array([-1., 2.], numpy.float16)
    with chainer.using_config('train', False):
        y, r = F.rrelu(x, l=0.2, u=0.4, return_r=True,
                       r=numpy.ones(2, numpy.float16))
    assert r.dtype == numpy.float16
    numpy.testing.assert_allclose(r, [0.3, 0.3], rtol=1e-3)
    numpy.testing.assert_allclose(y.array, [-0.3, 2], rtol=1e-3)


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='less than upper'):
        F.rrelu(x, l=0.3, u=0.2)
    with pytest.raises(ValueError, match='lower must be in the range'):
        F.rrelu(x, l=-0.1)
    with pytest.raises(ValueError, match='upper must be in the range'):
        F.rrelu(x, u=1.0)
    with pytest.raises(ValueError, match='train argument'):
        F.rrelu(x, train=True)
    with pytest.raises(TypeError, match="'foo'"):
        F.rrelu(x, foo=1)
    with pytest.raises(InvalidType, match='r.shape'):
        F.rrelu(x, r=numpy.ones(3, numpy.float32))
    with pytest.raises(InvalidType, match='r.dtype'):
        F.rrelu(x, r=numpy.ones((2, 3), numpy.float64))
    with pytest.raises(InvalidType, match='RReLU'):
        F.rrelu(x.astype(numpy.int32))
