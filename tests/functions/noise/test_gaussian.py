import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


@pytest.mark.parametrize('shape', [(3, 2), ()])
def test_gaussian_with_fixed_eps(shape):
    eps = numpy.random.RandomState(1).randn(*shape)
    check_op(lambda m, v: F.gaussian(
        m, v, eps=on_device(numpy.asarray(eps, m.dtype))),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape), dt),
                              numpy.asarray(rng.randn(*shape), dt)),
             lambda m, v: m + numpy.exp(v / 2) * eps)


def test_eps_from_the_global_generator():
    mean = numpy.array([[0., 1.], [2., 3.]], numpy.float32)
    ln_var = numpy.array([[0., 1.], [-1., 2.]], numpy.float32)
    numpy.random.seed(0)
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    assert y.creator.label == 'Gaussian' and eps.dtype == numpy.float32
    numpy.random.seed(0)
    expected = numpy.random.randn(2, 2).astype(numpy.float32)
    numpy.testing.assert_array_equal(eps, expected)
    numpy.testing.assert_allclose(y.array, mean + numpy.exp(ln_var / 2) * eps,
                                  rtol=1e-6)
    # Test mode draws too.
    with chainer.using_config('train', False):
        y2 = F.gaussian(mean, ln_var)
    assert not numpy.array_equal(y2.array, y.array)


def test_float16_and_empty():
    m = numpy.zeros((0, 2), numpy.float16)
    y, eps = F.gaussian(m, m, return_eps=True)
    assert y.shape == (0, 2) and y.dtype == eps.dtype == numpy.float16


def test_errors():
    m = numpy.zeros((2, 2), numpy.float32)
    with pytest.raises(InvalidType, match='mean.shape == ln_var.shape'):
        F.gaussian(m, m[0])
    with pytest.raises(InvalidType, match='mean.dtype == ln_var.dtype'):
        F.gaussian(m, m.astype(numpy.float64))
    with pytest.raises(InvalidType, match='mean.dtype.kind'):
        F.gaussian(m.astype(numpy.int32), m.astype(numpy.int32))
    with pytest.raises(TypeError, match="'foo'"):
        F.gaussian(m, m, foo=1)
